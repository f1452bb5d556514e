import { EMPTY, finalize, mergeMap, Observable, type SchedulerLike } from 'rxjs';
import type { PublicErrorFrame } from '../../codecs/publicErrorFrame';
import { cancelFrame, subscribeFrame, type SubscriptionExtraParams, type SubscriptionRequest } from '../../codecs/requests';
import { ConnectionClosedError, SubscriptionRejectedError, SubscriptionRetriedError, TopicQuarantinedError } from '../../errors';
import { excerpt } from '../../internal/redact';
import { backoffDelayMs } from '../../operators/reconnect';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import { FrameQueue, type QueueGate } from './frameQueue';
import { framePump } from './framePump';
import { InFlight } from './inFlight';
import type { Pacer } from './pacer';
import { serviceCodeKind, verdictOf } from './serviceCodes';
import type { RequestFrames } from './v2Frames';

/**
 * Data path, market side: the requests of every topic (`topicSubscription`) on their way to the socket and the
 * service's word on them. `sub` and `cancel` requests wait in a {@link FrameQueue} and leave batched (one frame per
 * request topic, symbols comma-joined), one frame per pacing slot. A `sub` frame is *in flight* until each of its
 * topics was answered (a data message or a code-0 acknowledgement) or `answerWindowMs` passed; the service's
 * error frames and lost sockets are put down to the topics in flight (see docs/market-streams.md, "When the
 * service says no"):
 * - a rejection of the request (see `serviceCodes`) of one known topic ends it (`SubscriptionRejectedError`); of
 *   a batch, or when it names nothing and several frames are in flight, the batch is split and the halves are
 *   sent again as suspect groups, one at a time, until the culprit stands alone;
 * - a rate limit, a busy service or an unknown code is reported (`SubscriptionRetriedError`) and the topics are
 *   sent again after a capped, jittered backoff;
 * - a socket lost right after `sub` frames (before their answer) makes their topics suspects likewise; a topic
 *   that was alone in flight `quarantineAfterCloses` times in a row ends (`TopicQuarantinedError`).
 *
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

/** The first wait of a topic the service refused for now, and the cap of the doubling waits, in ms. @internal */
export const RETRY_MIN_MS = 1000;
/** @internal */
export const RETRY_MAX_MS = 30_000;

/**
 * The V1 frames (`subscribeFrame`, `cancelFrame`), with `params.site` when a `site` is given (HashKey MENA). @internal
 */
export function v1RequestFrames(site?: string): RequestFrames {
  const withSite = (frame: SubscriptionRequest): SubscriptionRequest => (site === undefined ? frame : { ...frame, params: { ...frame.params, site } as SubscriptionRequest['params'] });
  return {
    sub: (symbols, topic, binary, id, params) => withSite(subscribeFrame(symbols, topic, binary, id, params)),
    cancel: (symbols, topic, binary, id, params) => withSite(cancelFrame(symbols, topic, binary, id, 'cancel', params)),
  };
}
const V1_FRAMES = /*#__PURE__*/ v1RequestFrames();

/** The gate that lets cancels only. */
const CANCELS_ONLY: QueueGate = { normal: false, suspects: false };

/** Longest code and message text of the service kept in an error. */
const CODE_LENGTH = 24;
const MSG_LENGTH = 120;

interface TopicState {
  readonly owner: BatchedTopic;
  readonly symbol: string;
  readonly topic: string;
  readonly binary: boolean;
  readonly params: SubscriptionExtraParams | undefined;
  readonly key: string;
  tag: number;
  /** The emitter of its queued `sub`. */
  pending: ((sent: SentSub) => void) | undefined;
  /** Closes in a row that followed its `sub` while it alone was in flight. */
  strikes: number;
  /** Refusals for now in a row (the backoff's attempt). */
  refusals: number;
}

/** @internal */
export function requestBatcher(config: RequestBatcherConfig): RequestBatcher {
  const { send, pacer, scheduler, random, nextId, maxSymbolsPerFrame, quarantineAfterCloses, answerWindowMs, suspectDelayMs, report, frames = V1_FRAMES } = config;
  const queue = new FrameQueue<TopicState>(maxSymbolsPerFrame);
  const states = new Map<object, TopicState>();
  const byKey = new Map<string, TopicState>();
  /** Keys whose `sub` went out on the current socket and were not cancelled since. */
  const live = new Set<string>();
  const inFlight = new InFlight<TopicState>(answerWindowMs);
  let epoch = 0;
  /** When the current socket opened (as far as the batcher knows). */
  let openedAt = 0;
  let lossSeen = 0;
  let lastTag = 0;

  const stateOf = (owner: BatchedTopic): TopicState => {
    let state = states.get(owner);
    if (state === undefined) {
      const { symbol, topic, binary, params } = owner;
      const key = `${symbol}|${topic}`;
      state = { owner, symbol, topic, binary, params, key, tag: 0, pending: undefined, strikes: 0, refusals: 0 };
      states.set(owner, state);
      byKey.set(key, state);
    }
    return state;
  };

  const newEpoch = (e: number): void => {
    if (e <= epoch) return;
    epoch = e;
    openedAt = scheduler.now();
    live.clear();
    queue.clearCancels();
    inFlight.clear();
  };

  /**
   * A suspect group goes out alone: only when no `sub` is in flight, on a socket open for `suspectDelayMs`, and
   * nothing else while one is.
   */
  const gate = (now: number): QueueGate => {
    inFlight.prune(now);
    return { normal: !inFlight.suspect, suspects: inFlight.size === 0 && now >= openedAt + suspectDelayMs };
  };

  /** `s` waits for no answer any more; a frame that has nothing left waiting lets the next one go. */
  const leaveFrame = (s: TopicState): void => {
    if (inFlight.leave(s)) pump.kick();
  };

  const dequeue = (s: TopicState): void => {
    queue.removeSub(s);
    s.pending = undefined;
  };

  /** Moves a queued `sub` to the group of its (changed) tag. */
  const retag = (s: TopicState, tag: number): void => {
    s.tag = tag;
    if (queue.hasSub(s)) queue.addSub(s);
  };

  const sendNext = (): void => {
    const now = scheduler.now();
    const next = queue.next(gate(now));
    if (next === undefined) return;
    const id = nextId();
    if (next.kind === 'cancel') {
      send(frames.cancel(next.symbols.join(','), next.topic, next.binary, id, next.params));
      return;
    }
    const { members } = next;
    const sent = send(frames.sub(members.map((s) => s.symbol).join(','), next.topic, next.binary, id, next.params));
    const emits: ((sent: SentSub) => void)[] = [];
    for (const s of members) {
      if (s.pending !== undefined) emits.push(s.pending);
      s.pending = undefined;
      if (sent) live.add(s.key);
    }
    if (sent) inFlight.sent(String(id), next.topic, now, next.tag !== 0, members);
    const answer: SentSub = { epoch, id: members.length === 1 ? String(id) : undefined };
    for (const emit of emits) emit(answer);
  };

  const pump = framePump(pacer, scheduler, {
    ready: () => queue.ready(gate(scheduler.now())),
    sendNext,
    // suspects held back by frames in flight, or by a socket too young: when the first of those ends
    wakeAt: () => {
      if (!queue.waitingSubs) return Infinity;
      const now = scheduler.now();
      return Math.min(openedAt + suspectDelayMs > now ? openedAt + suspectDelayMs : Infinity, inFlight.firstExpiry());
    },
  });

  /** The units an error frame concerns: the topics it names, the topic or frame its id names, or (it names nothing) each frame in flight. */
  const attribute = (frame: PublicErrorFrame, byId: object | undefined): TopicState[][] => {
    inFlight.prune(scheduler.now());
    const sentFrame = frame.id !== undefined ? inFlight.get(frame.id) : undefined;
    const topic = frame.topic ?? sentFrame?.topic;
    if (frame.symbol !== undefined) {
      const symbols = frame.symbol.split(',');
      const named =
        topic !== undefined ? symbols.flatMap((symbol) => byKey.get(`${symbol}|${topic}`) ?? []) : inFlight.withSymbols(symbols, (s) => s.symbol);
      return named.length > 0 ? [named] : [];
    }
    const routed = byId !== undefined ? states.get(byId) : undefined;
    if (routed !== undefined) return [[routed]];
    if (sentFrame !== undefined) return [[...sentFrame.waiting]];
    return frame.id !== undefined ? [] : inFlight.units();
  };

  /** Splits a refused unit in halves (suspect groups of their own), or marks a lone topic to go out alone. */
  const split = (unit: readonly TopicState[]): void => {
    const half = Math.ceil(unit.length / 2);
    const first = ++lastTag;
    const second = unit.length > 1 ? ++lastTag : first;
    unit.forEach((s, i) => retag(s, i < half ? first : second));
  };

  const answeredState = (s: TopicState): void => {
    s.strikes = 0;
    s.refusals = 0;
    if (s.tag !== 0) retag(s, 0);
    leaveFrame(s);
  };

  const serviceFrame = (frame: PublicErrorFrame, byId: object | undefined): boolean => {
    const verdict = verdictOf(serviceCodeKind(frame.code), attribute(frame, byId));
    const code = typeof frame.code === 'string' ? excerpt(frame.code, undefined, CODE_LENGTH) : frame.code;
    const words = frame.desc ?? frame.msg;
    const msg = words === undefined ? undefined : excerpt(words, undefined, MSG_LENGTH);
    switch (verdict.kind) {
      case 'unattributed':
        return false;
      case 'answered':
        for (const s of verdict.topics) {
          answeredState(s);
          s.owner.acknowledge();
        }
        return true;
      case 'rejected':
        verdict.topic.owner.refuse(new SubscriptionRejectedError(verdict.topic.symbol, verdict.topic.topic, code, msg));
        return true;
      case 'split':
        for (const unit of verdict.units) split(unit);
        for (const s of verdict.units.flat()) {
          leaveFrame(s);
          s.owner.resend(0);
        }
        return true;
      case 'retry': {
        const refused = verdict.topics;
        const topic = new Set(refused.map((s) => s.topic)).size === 1 ? refused[0]!.topic : frame.topic;
        report(new SubscriptionRetriedError(refused.map((s) => s.symbol), topic, code, msg, verdict.reason));
        for (const s of refused) {
          s.refusals += 1;
          leaveFrame(s);
          s.owner.resend(Math.max(RETRY_MIN_MS, backoffDelayMs(s.refusals, RETRY_MIN_MS, RETRY_MAX_MS, 2, random)));
        }
        return true;
      }
      default: {
        const never: never = verdict;
        return never;
      }
    }
  };

  /**
   * The socket of `lostEpoch` was lost: the topics it left waiting for an answer become suspects; one alone takes a
   * strike. Lost with nothing waiting: the service closes sockets whatever it is sent, no topic is to blame (every
   * strike is cleared).
   */
  const lost = (lostEpoch: number, cause: Error): void => {
    if (lostEpoch !== epoch || lossSeen >= lostEpoch) return;
    lossSeen = lostEpoch;
    inFlight.prune(scheduler.now());
    const units = inFlight.units();
    inFlight.clear();
    const all = units.flat();
    if (all.length === 0) for (const s of states.values()) s.strikes = 0;
    const lone = all.length === 1 ? all[0]! : undefined;
    if (lone === undefined) {
      for (const unit of units) split(unit);
      return;
    }
    lone.strikes += 1;
    if (lone.strikes >= quarantineAfterCloses) {
      lone.owner.refuse(new TopicQuarantinedError(lone.symbol, lone.topic, cause instanceof ConnectionClosedError ? cause.code : undefined, lone.strikes));
    } else split([lone]);
  };

  const cancel = (owner: BatchedTopic): void => {
    const s = states.get(owner);
    if (s !== undefined) {
      dequeue(s);
      leaveFrame(s);
    }
    const key = s?.key ?? `${owner.symbol}|${owner.topic}`;
    if (live.delete(key)) {
      queue.addCancel(owner.symbol, owner.topic, owner.binary, owner.params);
      pump.kick();
    } else pump.settle();
  };

  return {
    sub: (owner, e) =>
      new Observable<SentSub>((subscriber) => {
        newEpoch(e);
        const s = stateOf(owner);
        const emit = (sent: SentSub): void => {
          subscriber.next(sent);
          subscriber.complete();
        };
        s.pending = emit;
        queue.addSub(s);
        pump.kick();
        return () => {
          if (s.pending !== emit) return;
          dequeue(s);
          pump.settle();
        };
      }),
    cancel,
    forget: (owner, sendCancel) => {
      const s = states.get(owner);
      if (sendCancel) cancel(owner);
      if (s === undefined) return;
      dequeue(s);
      leaveFrame(s);
      if (!sendCancel) live.delete(s.key);
      states.delete(owner);
      if (byKey.get(s.key) === s) byKey.delete(s.key);
      pump.settle();
    },
    answered: (owner) => {
      const s = states.get(owner);
      if (s !== undefined) answeredState(s);
    },
    serviceFrame,
    watch: (status$) =>
      status$.pipe(
        mergeMap((status) => {
          if (status.type === 'open') newEpoch(status.epoch);
          else if ((status.type === 'reconnecting' || status.type === 'closed') && status.cause !== undefined) lost(status.epoch, status.cause);
          return EMPTY;
        }),
        finalize(() => {
          // The last topic left: the socket closes right after this (watch comes first in the feed). The cancels
          // queued leave now, unpaced (a goodbye, one frame per request topic at most), the rest is dropped.
          for (let next = queue.next(CANCELS_ONLY); next?.kind === 'cancel'; next = queue.next(CANCELS_ONLY)) {
            send(frames.cancel(next.symbols.join(','), next.topic, next.binary, nextId(), next.params));
          }
          pump.stop();
        }),
      ),
  };
}
