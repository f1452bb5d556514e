import type { Observable, SchedulerLike } from 'rxjs';
import type { PublicErrorFrame } from '../../codecs/publicErrorFrame';
import type { SubscriptionExtraParams, SubscriptionRequest } from '../../codecs/requests';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { Pacer } from './pacer';
import type { RequestFrames } from './v2Frames';

/**
 * What the request batcher (`requestBatcher.ts`) and the topic subscriptions it serves see of each other.
 * @internal
 * @module
 */

/** A topic subscription as the batcher sees it: what goes in its frames, and how it hears the verdicts. @internal */
export interface BatchedTopic {
  readonly symbol: string;
  readonly topic: string;
  readonly binary: boolean;
  /** Params of its frames besides `binary` (`limit`, `dumpScale`). Default: none. */
  readonly params?: SubscriptionExtraParams | undefined;
  /** The service acknowledged its `sub` (code 0). */
  acknowledge(): void;
  /** The service refused it for good: end it with `error`. */
  refuse(error: Error): void;
  /** Send its `sub` again after `delayMs`. */
  resend(delayMs: number): void;
}

/** A `sub` that left: on the socket of `epoch`; `id` is its frame's id when the frame named this topic alone. @internal */
export interface SentSub {
  readonly epoch: number;
  readonly id: string | undefined;
}

/** @internal */
export interface RequestBatcherConfig {
  /** Sends a frame if a socket is open (`Connection.sendIfOpen`). */
  readonly send: (frame: SubscriptionRequest | object) => boolean;
  /** How the frames are written. Default: V1's (`subscribeFrame`, `cancelFrame`). */
  readonly frames?: RequestFrames | undefined;
  readonly pacer: Pacer;
  readonly scheduler: SchedulerLike;
  readonly random: () => number;
  readonly nextId: () => number;
  /** Most symbols in one frame. */
  readonly maxSymbolsPerFrame: number;
  /** Closes in a row right after a topic's lone `sub` that end it. */
  readonly quarantineAfterCloses: number;
  /** How long a `sub` frame waits for its answer before it no longer counts as in flight, in ms. */
  readonly answerWindowMs: number;
  /**
   * How long a socket must have been open before a suspect goes out on it, in ms: a service that closes every
   * socket at once, whatever it is sent, closes it before any suspect is sent (and is not taken for a poison topic).
   */
  readonly suspectDelayMs: number;
  /** Where `SubscriptionRetriedError`s go (`errors$`). */
  readonly report: (error: Error) => void;
}

/** @internal */
export interface RequestBatcher {
  /**
   * Cold: queues `topic`'s `sub` for the socket of `epoch` and emits once when its frame left (or was dropped, the
   * socket being down). Unsubscribing before that takes it out of the queue (a slot it waited for is given back).
   */
  sub(topic: BatchedTopic, epoch: number): Observable<SentSub>;
  /** Takes `topic`'s `sub` out of the queue, and queues its `cancel` when its `sub` went out on the current socket. */
  cancel(topic: BatchedTopic): void;
  /** `topic` ended: as {@link cancel} when `sendCancel`, then everything about it is forgotten. */
  forget(topic: BatchedTopic, sendCancel: boolean): void;
  /** A data message answered `topic`'s `sub`. */
  answered(topic: BatchedTopic): void;
  /**
   * An error frame of the service (`byId`: the topic its `id` routes to, if any). False when it concerns no
   * subscription (the router reports it as a `DecodeError`).
   */
  serviceFrame(frame: PublicErrorFrame, byId: object | undefined): boolean;
  /**
   * Follows the connection (new sockets, lost ones) while subscribed; emits nothing. When unsubscribed (the last
   * topic left: put it first in the feed, before the socket closes), sends the cancels still queued at once.
   */
  watch(status$: Observable<ConnectionStatus>): Observable<never>;
}
