import {
  asyncScheduler,
  Observable,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { ConfigError } from '../errors';
import { EventHeap } from '../internal/heap';
import { RecentKeys } from '../internal/recentKeys';
import { LateEventError } from './lateEventError';

/**
 * What {@link reorderByEventTime} does with an event whose time is before an event already emitted.
 *
 * @example
 * ```ts
 * import type { PrivateEvent } from 'ex-streams';
 * import { reorderByEventTime, type LatePolicy } from 'ex-streams/folds';
 *
 * const late: LatePolicy = 'drop';
 * const ordered = reorderByEventTime<PrivateEvent>({ late, onLate: (e, watermark) => console.warn('late', e.E, watermark) });
 * ```
 */
export type LatePolicy = 'emit' | 'drop' | 'error';

/**
 * Configuration of {@link reorderByEventTime}. Every field is optional.
 *
 * @example
 * ```ts
 * import { reorderByEventTime, type ReorderByEventTimeConfig } from 'ex-streams/folds';
 *
 * interface Update { readonly E: number; readonly id: string }
 * const config: ReorderByEventTimeConfig<Update> = { maxDelayMs: 500, dedupeKey: (u) => u.id, late: 'emit' };
 * const ordered = reorderByEventTime(config); // MonoTypeOperatorFunction<Update>
 * ```
 */
export interface ReorderByEventTimeConfig<T> {
  /**
   * Event time of a value, in ms. Default: `e => e.E` (the private stream's event time). A value whose time is not a
   * number (no `E`: an `OtherPrivateEvent` without one) is not held: it leaves at once.
   */
  readonly eventTime?: ((event: T) => number) | undefined;
  /**
   * Longest time (processing time, ms, on `scheduler`) an event is held waiting for earlier events.
   * Default `250`. Larger values put right events that arrive further apart, at the cost of that much added
   * latency on every event; `Infinity` holds events until `maxBuffered` or completion forces them out.
   */
  readonly maxDelayMs?: number | undefined;
  /** Most events held at once; past it the earliest held event is emitted at once. Default `10000`. */
  readonly maxBuffered?: number | undefined;
  /**
   * Policy for an event older than one already emitted: `'emit'` (default) passes it on at once, out of
   * order, and reports it to `onLate`; `'drop'` reports it to `onLate` and discards it; `'error'` emits
   * what is held, then errors with a {@link LateEventError}.
   */
  readonly late?: LatePolicy | undefined;
  /** Called with each late event and the time of the last event emitted in order (policies `'emit'`, `'drop'`). */
  readonly onLate?: ((event: T, watermark: number) => void) | undefined;
  /**
   * Identity of an event, for de-duplication. When set, an event whose key was seen within the last
   * `dedupeWindowMs` (among the last `dedupeMaxKeys` keys) is discarded, whether the first copy is still held
   * or already emitted. Default: no de-duplication.
   */
  readonly dedupeKey?: ((event: T) => string) | undefined;
  /** How long a key is remembered after its event arrived (ms). Default `60000`. */
  readonly dedupeWindowMs?: number | undefined;
  /** Most keys remembered; the oldest are forgotten first. Default `100000`. */
  readonly dedupeMaxKeys?: number | undefined;
  /** Clock and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

const eventTimeE = (event: unknown): number => (event as { readonly E: number }).E;

/**
 * Puts events back in event-time order: holds each event up to `maxDelayMs` and emits in non-decreasing
 * event time (`E` by default), ties in arrival order. The service pushes private payloads out of order in
 * busy times and asks consumers to order them by `E`; this is that buffer.
 *
 * Behaviour:
 * - every event leaves at the latest `maxDelayMs` after it arrived (so an idle stream strands nothing);
 *   when it leaves, every held event with an earlier or equal time leaves before it;
 * - more than `maxBuffered` held: the earliest held event is emitted at once;
 * - late events (time before one already emitted) follow `late` (default `'emit'` + `onLate`, since silently
 *   dropping an order update is worse than seeing it out of order);
 * - duplicates (same `dedupeKey`) are dropped, also after the first copy was emitted;
 * - an event whose time is not a number (NaN, missing) is passed on at once, unordered;
 * - source completion: everything held is emitted in order, then completion; source error (or an exception
 *   in a callback): everything held is emitted in order, then the error;
 * - O(log n) per event (a stable binary heap), and at most one timer at a time, cancelled on completion,
 *   error and unsubscribe.
 *
 * ```
 * source:  --c-a-b-----d---|        c, a, b, d have E = 3, 1, 2, 4
 *          reorderByEventTime({ maxDelayMs: 5 })      (1 frame = 1 ms)
 * result:  -------(abc)----(d|)     c is held 5 frames, a and b leave with it; completion flushes d
 * ```
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { reorderByEventTime } from 'ex-streams/folds';
 *
 * from([{ E: 3 }, { E: 1 }, { E: 2 }])
 *   .pipe(reorderByEventTime({ maxDelayMs: 100, dedupeKey: (e) => String(e.E) }))
 *   .subscribe((e) => console.log(e.E)); // 1, 2, 3
 * ```
 */
export function reorderByEventTime<T>(
  config: ReorderByEventTimeConfig<T> & { readonly eventTime: (event: T) => number },
): MonoTypeOperatorFunction<T>;
export function reorderByEventTime<T extends { readonly E?: number | undefined }>(
  config?: ReorderByEventTimeConfig<T>,
): MonoTypeOperatorFunction<T>;
export function reorderByEventTime<T>(config: ReorderByEventTimeConfig<T> = {}): MonoTypeOperatorFunction<T> {
  const { dedupeKey } = config;
  return reorderWithMemory(config, dedupeKey && ((seen, event, now) => seen.add(dedupeKey(event), now)));
}

/**
 * {@link reorderByEventTime} with de-duplication by `remember` instead of `dedupeKey` (ignored): it records
 * the event's identity in `seen` at `now` and returns `false` for a duplicate (e.g. with `RecentKeys.addNumbers`,
 * without building a key string). `undefined`: no de-duplication.
 * @internal
 */
function reorderWithMemory<T>(
  config: ReorderByEventTimeConfig<T>,
  remember: ((seen: RecentKeys, event: T, now: number) => boolean) | undefined,
): MonoTypeOperatorFunction<T> {
  const open = reorderBuffer(config, remember);
  return (source) =>
    new Observable<T>((subscriber) => {
      const input = open(subscriber);
      subscriber.add(input.dispose);
      return source.subscribe({ next: input.next, error: input.error, complete: input.complete });
    });
}

/** Where a reorder buffer sends its output (an RxJS `Subscriber` is one). @internal */
export interface ReorderOutput<T> {
  readonly closed: boolean;
  next(value: T): void;
  error(err: unknown): void;
  complete(): void;
}

/** The input side of one reorder buffer: plain functions, no RxJS subscriber in between. @internal */
export interface ReorderInput<T> {
  /**
   * One event. `now`, when given, is the scheduler's current time as the caller already read it (the user
   * stream passes its frame's arrival time, read in the same turn); otherwise the buffer reads it.
   */
  readonly next: (event: T, now?: number) => void;
  /** Emits everything held in order, then the error. */
  readonly error: (err: unknown) => void;
  /** Emits everything held in order, then completes. */
  readonly complete: () => void;
  /** Stops the timer and drops what is held (the output was unsubscribed). */
  readonly dispose: () => void;
  /**
   * With a zero hold and `releasedByCaller`: emits, in order, everything held (the caller's unit of arrival, a
   * frame, has ended). Otherwise does nothing (the timer releases).
   */
  readonly drain: () => void;
}

/** How the caller of {@link reorderBuffer} drives it. @internal */
export interface ReorderDriver {
  /**
   * With `maxDelayMs: 0`, no timer: the caller calls `drain()` after each unit of arrival (a frame), so an
   * in-order event leaves in the call that received it, and the events of one unit are still ordered among
   * themselves. Ignored for a non-zero hold.
   */
  readonly releasedByCaller?: boolean;
}

/**
 * The state machine of {@link reorderWithMemory} without an `Observable` around it: each call opens one
 * buffer writing to `out` (the operator passes its subscriber). It is step 3 of the user stream's private
 * path: `userCore` opens one per run, writing to the outputs and the folds, and hands its input (behind the
 * event-time guard) to each key session. The config is validated once, when the factory is made.
 * @internal
 */
export function reorderBuffer<T>(
  config: ReorderByEventTimeConfig<T>,
  remember: ((seen: RecentKeys, event: T, now: number) => boolean) | undefined,
  driver: ReorderDriver = {},
): (out: ReorderOutput<T>) => ReorderInput<T> {
  const {
    eventTime = eventTimeE,
    maxDelayMs = 250,
    maxBuffered = 10_000,
    late = 'emit',
    onLate,
    dedupeWindowMs = 60_000,
    dedupeMaxKeys = 100_000,
    scheduler = asyncScheduler,
  } = config;
  validate(maxDelayMs, maxBuffered, late, dedupeWindowMs, dedupeMaxKeys);
  const drained = maxDelayMs === 0 && driver.releasedByCaller === true;
  const timed = maxDelayMs !== Infinity && !drained;
  const settings: BufferSettings<T> = { eventTime, maxDelayMs, maxBuffered, late, onLate, dedupeWindowMs, dedupeMaxKeys, scheduler, remember, drained, timed };
  return (out) => openBuffer(settings, out);
}

/** The settings of {@link reorderBuffer}'s buffers: its config with defaults applied, checked. */
interface BufferSettings<T> {
  readonly eventTime: (event: T) => number | undefined;
  readonly maxDelayMs: number;
  readonly maxBuffered: number;
  readonly late: LatePolicy;
  readonly onLate: ((event: T, watermark: number) => void) | undefined;
  readonly dedupeWindowMs: number;
  readonly dedupeMaxKeys: number;
  readonly scheduler: SchedulerLike;
  readonly remember: ((seen: RecentKeys, event: T, now: number) => boolean) | undefined;
  /** A zero hold the caller releases (`drain()`): no timer. */
  readonly drained: boolean;
  /** Events are held until a deadline (a timer releases them). */
  readonly timed: boolean;
}

/** A hold deadline and the running max of `E` when it was set (one entry per distinct deadline). */
interface Deadline {
  readonly deadline: number;
  time: number;
}

/** One buffer of {@link reorderBuffer}, writing to `out`. */
function openBuffer<T>(settings: BufferSettings<T>, out: ReorderOutput<T>): ReorderInput<T> {
  const { eventTime, maxDelayMs, maxBuffered, late, onLate, dedupeWindowMs, dedupeMaxKeys, scheduler, remember, drained, timed } = settings;
  const heap = new EventHeap<T>();
  // (deadline, running max of E) per new maximum, arrival order; one entry per distinct deadline.
  const deadlines: Deadline[] = [];
  const seen = remember !== undefined ? new RecentKeys(dedupeWindowMs, dedupeMaxKeys) : undefined;
  let watermark = -Infinity; // E of the last event emitted in order
  let queuedMax = -Infinity; // highest E pushed to `deadlines`
  let timer: Subscription | undefined;

  const release = (threshold: number): void => {
    while (heap.size > 0 && heap.peekTime() <= threshold && !out.closed) {
      watermark = heap.peekTime();
      out.next(heap.pop());
    }
  };

  // re-armed with a fresh action, not `this.schedule`: on a virtual scheduler that chains one action per re-arm
  // (see lib/internal/scheduleRepeating.ts), and a busy stream re-arms for as long as it runs
  function onTimer(): void {
    const now = scheduler.now();
    release(takeDue(deadlines, now));
    while (deadlines.length > 0 && deadlines[0]!.time < watermark) deadlines.shift();
    timer = deadlines.length > 0 && !out.closed ? scheduler.schedule(onTimer, deadlines[0]!.deadline - now) : undefined;
  }

  const stopTimer = (): void => {
    timer?.unsubscribe();
    timer = undefined;
  };

  const fail = (err: unknown): void => {
    stopTimer();
    release(Infinity);
    out.error(err);
  };

  const next = (event: T, arrivedAt?: number): void => {
    if (out.closed) return;
    try {
      const time = eventTime(event);
      if (typeof time !== 'number' || time !== time) {
        out.next(event);
        return;
      }
      // One clock read per event (none when the caller passed it), shared by the de-duplication window and
      // the hold deadline.
      const now = arrivedAt ?? (seen !== undefined || timed ? scheduler.now() : 0);
      if (seen !== undefined && !remember!(seen, event, now)) return;
      if (time < watermark) {
        const error = lateEvent(late, onLate, out, event, time, watermark);
        if (error !== undefined) fail(error);
        return;
      }
      heap.push(time, event);
      if (timed && time >= queuedMax) {
        queuedMax = time;
        // Same deadline as the newest entry (same clock reading): raise its time instead of adding one.
        addDeadline(deadlines, now + maxDelayMs, time);
        // No timer pending means `deadlines` was empty, so this entry is the earliest deadline.
        if (timer === undefined) timer = scheduler.schedule(onTimer, maxDelayMs);
      }
      if (heap.size > maxBuffered) {
        watermark = heap.peekTime();
        out.next(heap.pop());
      }
    } catch (err) {
      fail(err);
    }
  };

  return {
    next,
    error: fail,
    complete: () => {
      stopTimer();
      release(Infinity);
      out.complete();
    },
    dispose: () => {
      stopTimer();
      heap.clear();
      deadlines.length = 0;
      seen?.clear();
    },
    drain: () => {
      if (drained && heap.size > 0) release(Infinity);
    },
  };
}

/** Takes the deadlines passed at `now`: the running max of `E` of the last one (everything up to it is released). */
function takeDue(deadlines: Deadline[], now: number): number {
  let threshold = -Infinity;
  while (deadlines.length > 0 && deadlines[0]!.deadline <= now) threshold = deadlines.shift()!.time;
  return threshold;
}

/** Notes the hold `deadline` of a new maximum `time`: the same deadline as the newest entry (same clock reading) raises its time. */
function addDeadline(deadlines: Deadline[], deadline: number, time: number): void {
  const newest = deadlines[deadlines.length - 1];
  if (newest !== undefined && newest.deadline === deadline) newest.time = time;
  else deadlines.push({ deadline, time });
}

/** What the `late` policy does with an event below the `watermark`: emitted or dropped (told to `onLate`), or the error to end with. */
function lateEvent<T>(late: LatePolicy, onLate: ((event: T, watermark: number) => void) | undefined, out: ReorderOutput<T>, event: T, time: number, watermark: number): LateEventError | undefined {
  switch (late) {
    case 'emit':
      onLate?.(event, watermark);
      out.next(event);
      return undefined;
    case 'drop':
      onLate?.(event, watermark);
      return undefined;
    case 'error':
      return new LateEventError(time, watermark);
    default: {
      const never: never = late;
      throw new ConfigError('late', `is not a known policy: ${String(never)}`);
    }
  }
}

function validate(
  maxDelayMs: number,
  maxBuffered: number,
  late: LatePolicy,
  dedupeWindowMs: number,
  dedupeMaxKeys: number,
): void {
  if (!(maxDelayMs >= 0)) throw new ConfigError('maxDelayMs', 'must be a number >= 0 (or Infinity)');
  if (!(maxBuffered >= 1) || (maxBuffered !== Infinity && !Number.isInteger(maxBuffered))) {
    throw new ConfigError('maxBuffered', 'must be an integer >= 1 (or Infinity)');
  }
  if (late !== 'emit' && late !== 'drop' && late !== 'error') {
    throw new ConfigError('late', "must be 'emit', 'drop' or 'error'");
  }
  if (!(dedupeWindowMs > 0)) throw new ConfigError('dedupeWindowMs', 'must be a number > 0');
  if (!(dedupeMaxKeys >= 1)) throw new ConfigError('dedupeMaxKeys', 'must be a number >= 1');
}
