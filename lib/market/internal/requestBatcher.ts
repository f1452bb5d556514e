import { EMPTY, finalize, mergeMap, Observable, type SchedulerLike } from 'rxjs';
import type { PublicErrorFrame } from '../../codecs/publicErrorFrame';
import { cancelFrame, subscribeFrame, type SubscriptionExtraParams, type SubscriptionRequest } from '../../codecs/requests';
import { ConnectionClosedError, SubscriptionRejectedError, SubscriptionRetriedError, TopicQuarantinedError } from '../../errors';
import { excerpt } from '../../internal/redact';
import { backoffDelayMs } from '../../operators/reconnect';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import { FrameQueue, type QueueGate } from './frameQueue';
import { type FramePump, framePump } from './framePump';
import { InFlight } from './inFlight';
import { serviceCodeKind, verdictOf } from './serviceCodes';
import type { RequestFrames } from './v2Frames';
import type { BatchedTopic, RequestBatcher, RequestBatcherConfig, SentSub } from './batchedTopic';

export type { BatchedTopic, RequestBatcher, RequestBatcherConfig, SentSub } from './batchedTopic';

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
  return new Batcher(config);
}

/** The batcher of one `marketStreams` (see the module doc): its queue, its topics, the frames in flight. */
class Batcher implements RequestBatcher {
  private readonly send: RequestBatcherConfig['send'];
  private readonly frames: RequestFrames;
  private readonly scheduler: SchedulerLike;
  private readonly random: () => number;
  private readonly nextId: () => number;
  private readonly quarantineAfterCloses: number;
  private readonly suspectDelayMs: number;
  private readonly report: (error: Error) => void;
  private readonly queue: FrameQueue<TopicState>;
  private readonly states = new Map<object, TopicState>();
  private readonly byKey = new Map<string, TopicState>();
  /** Keys whose `sub` went out on the current socket and were not cancelled since. */
  private readonly live = new Set<string>();
  private readonly inFlight: InFlight<TopicState>;
  private readonly pump: FramePump;
  private epoch = 0;
  /** When the current socket opened (as far as the batcher knows). */
  private openedAt = 0;
  private lossSeen = 0;
  private lastTag = 0;

  constructor(config: RequestBatcherConfig) {
    const { pacer, scheduler, maxSymbolsPerFrame, answerWindowMs, frames = V1_FRAMES } = config;
    this.send = config.send;
    this.frames = frames;
    this.scheduler = scheduler;
    this.random = config.random;
    this.nextId = config.nextId;
    this.quarantineAfterCloses = config.quarantineAfterCloses;
    this.suspectDelayMs = config.suspectDelayMs;
    this.report = config.report;
    this.queue = new FrameQueue<TopicState>(maxSymbolsPerFrame);
    this.inFlight = new InFlight<TopicState>(answerWindowMs);
    this.pump = framePump(pacer, scheduler, {
      ready: () => this.queue.ready(this.gate(scheduler.now())),
      sendNext: () => this.sendNext(),
      // suspects held back by frames in flight, or by a socket too young: when the first of those ends
      wakeAt: () => {
        if (!this.queue.waitingSubs) return Infinity;
        const now = scheduler.now();
        const youngUntil = this.openedAt + this.suspectDelayMs;
        return Math.min(youngUntil > now ? youngUntil : Infinity, this.inFlight.firstExpiry());
      },
    });
  }

  sub(owner: BatchedTopic, e: number): Observable<SentSub> {
    return new Observable<SentSub>((subscriber) => {
      this.newEpoch(e);
      const s = this.stateOf(owner);
      const emit = (sent: SentSub): void => {
        subscriber.next(sent);
        subscriber.complete();
      };
      s.pending = emit;
      this.queue.addSub(s);
      this.pump.kick();
      return () => {
        if (s.pending !== emit) return;
        this.dequeue(s);
        this.pump.settle();
      };
    });
  }

  cancel(owner: BatchedTopic): void {
    const s = this.states.get(owner);
    if (s !== undefined) {
      this.dequeue(s);
      this.leaveFrame(s);
    }
    const key = s?.key ?? `${owner.symbol}|${owner.topic}`;
    if (this.live.delete(key)) {
      this.queue.addCancel(owner.symbol, owner.topic, owner.binary, owner.params);
      this.pump.kick();
    } else this.pump.settle();
  }

  forget(owner: BatchedTopic, sendCancel: boolean): void {
    const s = this.states.get(owner);
    if (sendCancel) this.cancel(owner);
    if (s === undefined) return;
    this.dequeue(s);
    this.leaveFrame(s);
    if (!sendCancel) this.live.delete(s.key);
    this.states.delete(owner);
    if (this.byKey.get(s.key) === s) this.byKey.delete(s.key);
    this.pump.settle();
  }

  answered(owner: BatchedTopic): void {
    const s = this.states.get(owner);
    if (s !== undefined) this.answeredState(s);
  }

  serviceFrame(frame: PublicErrorFrame, byId: object | undefined): boolean {
    const verdict = verdictOf(serviceCodeKind(frame.code), this.attribute(frame, byId));
    const code = typeof frame.code === 'string' ? excerpt(frame.code, undefined, CODE_LENGTH) : frame.code;
    const words = frame.desc ?? frame.msg;
    const msg = words === undefined ? undefined : excerpt(words, undefined, MSG_LENGTH);
    switch (verdict.kind) {
      case 'unattributed':
        return false;
      case 'answered':
        for (const s of verdict.topics) {
          this.answeredState(s);
          s.owner.acknowledge();
        }
        return true;
      case 'rejected':
        verdict.topic.owner.refuse(new SubscriptionRejectedError(verdict.topic.symbol, verdict.topic.topic, code, msg));
        return true;
      case 'split':
        for (const unit of verdict.units) this.split(unit);
        for (const s of verdict.units.flat()) {
          this.leaveFrame(s);
          s.owner.resend(0);
        }
        return true;
      case 'retry':
        this.retry(verdict.topics, verdict.reason, frame.topic, code, msg);
        return true;
      default: {
        const never: never = verdict;
        return never;
      }
    }
  }

  watch(status$: Observable<ConnectionStatus>): Observable<never> {
    return status$.pipe(
      mergeMap((status) => {
        if (status.type === 'open') this.newEpoch(status.epoch);
        else if ((status.type === 'reconnecting' || status.type === 'closed') && status.cause !== undefined) this.lost(status.epoch, status.cause);
        return EMPTY;
      }),
      finalize(() => {
        // The last topic left: the socket closes right after this (watch comes first in the feed). The cancels
        // queued leave now, unpaced (a goodbye, one frame per request topic at most), the rest is dropped.
        for (let next = this.queue.next(CANCELS_ONLY); next?.kind === 'cancel'; next = this.queue.next(CANCELS_ONLY)) {
          this.send(this.frames.cancel(next.symbols.join(','), next.topic, next.binary, this.nextId(), next.params));
        }
        this.pump.stop();
      }),
    );
  }

  private stateOf(owner: BatchedTopic): TopicState {
    let state = this.states.get(owner);
    if (state === undefined) {
      const { symbol, topic, binary, params } = owner;
      const key = `${symbol}|${topic}`;
      state = { owner, symbol, topic, binary, params, key, tag: 0, pending: undefined, strikes: 0, refusals: 0 };
      this.states.set(owner, state);
      this.byKey.set(key, state);
    }
    return state;
  }

  private newEpoch(e: number): void {
    if (e <= this.epoch) return;
    this.epoch = e;
    this.openedAt = this.scheduler.now();
    this.live.clear();
    this.queue.clearCancels();
    this.inFlight.clear();
  }

  /**
   * A suspect group goes out alone: only when no `sub` is in flight, on a socket open for `suspectDelayMs`, and
   * nothing else while one is.
   */
  private gate(now: number): QueueGate {
    this.inFlight.prune(now);
    return { normal: !this.inFlight.suspect, suspects: this.inFlight.size === 0 && now >= this.openedAt + this.suspectDelayMs };
  }

  /** `s` waits for no answer any more; a frame that has nothing left waiting lets the next one go. */
  private leaveFrame(s: TopicState): void {
    if (this.inFlight.leave(s)) this.pump.kick();
  }

  private dequeue(s: TopicState): void {
    this.queue.removeSub(s);
    s.pending = undefined;
  }

  /** Moves a queued `sub` to the group of its (changed) tag. */
  private retag(s: TopicState, tag: number): void {
    s.tag = tag;
    if (this.queue.hasSub(s)) this.queue.addSub(s);
  }

  private sendNext(): void {
    const now = this.scheduler.now();
    const next = this.queue.next(this.gate(now));
    if (next === undefined) return;
    const id = this.nextId();
    if (next.kind === 'cancel') {
      this.send(this.frames.cancel(next.symbols.join(','), next.topic, next.binary, id, next.params));
      return;
    }
    const { members } = next;
    const sent = this.send(this.frames.sub(members.map((s) => s.symbol).join(','), next.topic, next.binary, id, next.params));
    const emits: ((sent: SentSub) => void)[] = [];
    for (const s of members) {
      if (s.pending !== undefined) emits.push(s.pending);
      s.pending = undefined;
      if (sent) this.live.add(s.key);
    }
    if (sent) this.inFlight.sent(String(id), next.topic, now, next.tag !== 0, members);
    const answer: SentSub = { epoch: this.epoch, id: members.length === 1 ? String(id) : undefined };
    for (const emit of emits) emit(answer);
  }

  /** The units an error frame concerns: the topics it names, the topic or frame its id names, or (it names nothing) each frame in flight. */
  private attribute(frame: PublicErrorFrame, byId: object | undefined): TopicState[][] {
    const { inFlight, byKey } = this;
    inFlight.prune(this.scheduler.now());
    const sentFrame = frame.id !== undefined ? inFlight.get(frame.id) : undefined;
    const topic = frame.topic ?? sentFrame?.topic;
    if (frame.symbol !== undefined) {
      const symbols = frame.symbol.split(',');
      const named =
        topic !== undefined ? symbols.flatMap((symbol) => byKey.get(`${symbol}|${topic}`) ?? []) : inFlight.withSymbols(symbols, (s) => s.symbol);
      return named.length > 0 ? [named] : [];
    }
    const routed = byId !== undefined ? this.states.get(byId) : undefined;
    if (routed !== undefined) return [[routed]];
    if (sentFrame !== undefined) return [[...sentFrame.waiting]];
    return frame.id !== undefined ? [] : inFlight.units();
  }

  /** Splits a refused unit in halves (suspect groups of their own), or marks a lone topic to go out alone. */
  private split(unit: readonly TopicState[]): void {
    const half = Math.ceil(unit.length / 2);
    const first = ++this.lastTag;
    const second = unit.length > 1 ? ++this.lastTag : first;
    unit.forEach((s, i) => this.retag(s, i < half ? first : second));
  }

  private answeredState(s: TopicState): void {
    s.strikes = 0;
    s.refusals = 0;
    if (s.tag !== 0) this.retag(s, 0);
    this.leaveFrame(s);
  }

  /** Topics refused for now (a rate limit, a busy service, an unknown code): reported, then sent again after a backoff. */
  private retry(refused: readonly TopicState[], reason: 'rate-limit' | 'busy' | 'unknown', frameTopic: string | undefined, code: PublicErrorFrame['code'], msg: string | undefined): void {
    const topic = new Set(refused.map((s) => s.topic)).size === 1 ? refused[0]!.topic : frameTopic;
    this.report(new SubscriptionRetriedError(refused.map((s) => s.symbol), topic, code, msg, reason));
    for (const s of refused) {
      s.refusals += 1;
      this.leaveFrame(s);
      s.owner.resend(Math.max(RETRY_MIN_MS, backoffDelayMs(s.refusals, RETRY_MIN_MS, RETRY_MAX_MS, 2, this.random)));
    }
  }

  /**
   * The socket of `lostEpoch` was lost: the topics it left waiting for an answer become suspects; one alone takes a
   * strike. Lost with nothing waiting: the service closes sockets whatever it is sent, no topic is to blame (every
   * strike is cleared).
   */
  private lost(lostEpoch: number, cause: Error): void {
    if (lostEpoch !== this.epoch || this.lossSeen >= lostEpoch) return;
    this.lossSeen = lostEpoch;
    this.inFlight.prune(this.scheduler.now());
    const units = this.inFlight.units();
    this.inFlight.clear();
    const all = units.flat();
    if (all.length === 0) for (const s of this.states.values()) s.strikes = 0;
    const lone = all.length === 1 ? all[0]! : undefined;
    if (lone === undefined) {
      for (const unit of units) this.split(unit);
      return;
    }
    lone.strikes += 1;
    if (lone.strikes >= this.quarantineAfterCloses) {
      lone.owner.refuse(new TopicQuarantinedError(lone.symbol, lone.topic, cause instanceof ConnectionClosedError ? cause.code : undefined, lone.strikes));
    } else this.split([lone]);
  }
}
