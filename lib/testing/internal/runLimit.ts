import type { SchedulerLike } from 'rxjs';

/** The parts of a `VirtualTimeScheduler` (`TestScheduler`) the limit reads; other schedulers have no limit. */
interface VirtualQueue {
  readonly actions: ReadonlyArray<{ readonly delay: number }>;
}

const isVirtual = (scheduler: SchedulerLike): scheduler is SchedulerLike & VirtualQueue =>
  Array.isArray((scheduler as Partial<VirtualQueue>).actions);

const duration = (ms: number): string =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;

/**
 * Stops a virtual-time run that goes on `maxFrames` ms past the last scripted event while the exchange's
 * clients are still busy: the sign of a stream that never completes (no unsubscription marble), which would
 * otherwise spin the `TestScheduler` forever (the client pings every 10 s, for ever).
 *
 * The last scripted event is the latest due time in the scheduler's queue when the run starts (unsubscription
 * marbles of `expectObservable`, hot marbles, scripts and faults scheduled in the run callback), extended by
 * the exchange's own scripts and faults. The check runs on the exchange's activity (a socket created, a frame
 * sent); past the limit it schedules an action that throws, which ends the flush with that error.
 * @internal
 */
export class RunLimit {
  private horizon = 0;
  private stopped = false;

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly maxFrames: number,
    private readonly describe: () => string,
  ) {
    if (!(maxFrames >= 0)) throw new RangeError(`testExchange: maxFrames must be a number >= 0 (or Infinity), got ${String(maxFrames)}`);
    if (!isVirtual(scheduler) || maxFrames === Infinity) return;
    this.horizon = scheduler.now();
    // Runs first when the run flushes: by then every marble of the run callback is in the queue.
    scheduler.schedule(() => {
      for (const action of scheduler.actions) if (Number.isFinite(action.delay)) this.extend(action.delay);
    });
  }

  /** A scripted event at virtual time `at`: the run may go on `maxFrames` past it. */
  extend(at: number | undefined): void {
    if (at !== undefined && Number.isFinite(at)) this.horizon = Math.max(this.horizon, at);
  }

  /** Called on the exchange's activity: past the limit, the run stops with an error that names the cause. */
  check(): void {
    const now = this.scheduler.now();
    if (this.stopped || !isVirtual(this.scheduler) || now <= this.horizon + this.maxFrames) return;
    this.stopped = true;
    const error = new Error(
      `testExchange: the run is at ${duration(now)} of virtual time, more than ${duration(this.maxFrames)} (maxFrames) ` +
        `past the last scripted event (${duration(this.horizon)}), and clients are still active (${this.describe()}). ` +
        `Likely cause: a stream that never completes. Add an unsubscription marble to expectObservable ` +
        `(expectObservable(stream$, '^ 1s !')), or end it with take(n) / takeUntil; if the run is really that long, ` +
        `raise testExchange({ maxFrames }).`,
    );
    error.name = 'TestRunLimitError';
    this.scheduler.schedule(() => {
      throw error;
    });
  }
}
