import { BehaviorSubject, type SchedulerLike, type Subscription } from 'rxjs';
import type { MarketCounters } from '../marketStatus';

/** How often `status$.dataAgeMs` is recomputed, in ms. @internal */
const DATA_AGE_REFRESH_MS = 1000;
/** `dataAgeMs` is published again when it moved by at least this many ms … @internal */
const DATA_AGE_STEP_MS = 250;
/** … and at least this share of the published value. @internal */
const DATA_AGE_STEP_RATIO = 0.1;

/**
 * The status and counters of one `marketStreams` (what `status$` shows besides the connection), updated by its
 * topic subscriptions and streams. Per frame and per delivered message it writes plain numbers (no allocation);
 * `dataAgeMs` is computed from them at most once per `DATA_AGE_REFRESH_MS`. @internal
 */
export class MarketStatusState {
  /** The counters `status$` shows. */
  readonly counters = new BehaviorSubject<MarketCounters>({
    topics: 0,
    tradeGaps: 0,
    klineRefetches: 0,
    klineGaps: 0,
    decodeErrors: 0,
    rejections: 0,
    resubscribes: 0,
    staleResubscribes: 0,
  });
  /** The scheduler time at which the frame being dispatched arrived (written per frame, read by `deliver`). */
  frameAt = 0;
  // A lost socket's gap starts when the service wrote the last message it delivered, if that is earlier than its
  // arrival (a message read late: whatever was written after it is lost too).
  private lastSentAt: number | undefined;
  private lastSentEpoch = 0;
  private lastDeliveredAt = 0;
  private nextRefreshAt = 0;
  private pendingRefresh: Subscription | undefined;
  /** Each topic name's last message (see {@link MarketStatusState.keptMessage}). */
  private readonly keptMessages = new Map<string, { last: unknown }>();

  /** `offsetMs`: the server clock's `serverTime - localTime` (read when `dataAgeMs` is recomputed). */
  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly offsetMs: () => number,
  ) {}

  /** Changes the counters (one emission). */
  count(change: (c: MarketCounters) => Partial<MarketCounters>): void {
    this.counters.next({ ...this.counters.value, ...change(this.counters.value) });
  }

  /** The send time of the last message delivered on the socket of `epoch`, if one was. */
  sentAt(epoch: number): number | undefined {
    return this.lastSentEpoch === epoch ? this.lastSentAt : undefined;
  }

  /**
   * Where the last message of `topic` (the request topic's name: `depth`, `trade`, `kline_1m`, …) is kept, shared by
   * every symbol's subscription of it, to keep its parsed shapes alive (why: at `kept.last` in `topicSubscription`).
   */
  keptMessage(topic: string): { last: unknown } {
    let holder = this.keptMessages.get(topic);
    if (holder === undefined) this.keptMessages.set(topic, (holder = { last: undefined }));
    return holder;
  }

  /** A message with a send time (or a record time) was delivered on the socket of `epoch`, from the frame being dispatched. */
  delivered(sentAt: number, epoch: number): void {
    this.lastSentAt = sentAt;
    this.lastSentEpoch = epoch;
    this.lastDeliveredAt = this.frameAt;
    this.refreshDataAge(this.frameAt);
  }

  /** A `sub` was sent again because the previous one brought nothing. */
  resubscribed(): void {
    this.count((c) => ({ resubscribes: c.resubscribes + 1 }));
  }

  /** A topic that went silent for its `staleAfterMs` was cancelled and subscribed again. */
  stale(): void {
    this.count((c) => ({ staleResubscribes: c.staleResubscribes + 1 }));
  }

  /** The service refused a topic. */
  rejected(): void {
    this.count((c) => ({ rejections: c.rejections + 1 }));
  }

  /** The router holds `topics` topics now. */
  topicsChanged(topics: number): void {
    if (topics !== this.counters.value.topics) this.count(() => ({ topics }));
  }

  /** Drops the pending `dataAgeMs` timer (the feed ended). */
  stop(): void {
    this.pendingRefresh?.unsubscribe();
    this.pendingRefresh = undefined;
  }

  /**
   * Recomputes `dataAgeMs` at most once per `DATA_AGE_REFRESH_MS`: from the delivery path (a consumer that
   * starves the event loop starves timers too) and from a timer (so the last value shows when the feed pauses).
   */
  private refreshDataAge(now: number): void {
    if (this.lastSentAt === undefined) return;
    if (now < this.nextRefreshAt) {
      // One one-shot timer at a time (a periodic one chains its virtual actions: a marble run of hours then
      // overflows the stack when it is torn down).
      this.pendingRefresh ??= this.scheduler.schedule(() => {
        this.pendingRefresh = undefined;
        this.refreshDataAge(this.scheduler.now());
      }, this.nextRefreshAt - now);
      return;
    }
    this.nextRefreshAt = now + DATA_AGE_REFRESH_MS;
    const age = Math.max(0, Math.round(this.lastDeliveredAt + this.offsetMs() - this.lastSentAt));
    const shown = this.counters.value.dataAgeMs;
    if (shown === undefined || Math.abs(age - shown) >= Math.max(DATA_AGE_STEP_MS, shown * DATA_AGE_STEP_RATIO)) {
      this.count(() => ({ dataAgeMs: age }));
    }
  }
}
