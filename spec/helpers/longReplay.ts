/** Long recordings replayed in virtual time (spec/testing/replayMarket.longRuns.spec.ts, replayMarket.busyDay.spec.ts). */
import type { VirtualTimeScheduler } from 'rxjs';
import { type LazyRecording, type RecordedEvent, replayMarket, tradeEnvelope, tradeRecord } from '../../lib/testing';
import { type ActionChains, sampleQueuedActions } from './actionChains';

const T0 = 1_700_000_000_000;
export const DAY_MS = 86_400_000;

/**
 * A recording of `days` of BTCUSDT trades, one frame every `everyMs` (trade ids 1, 2, …), one socket from start to end
 * (pings every 10 s answered, the watchdog re-armed all along), read lazily as a recorder's files would be.
 */
export function tradesEvery(everyMs: number, days: number): { readonly recording: LazyRecording; readonly frames: number } {
  const frames = Math.floor((days * DAY_MS - 20) / everyMs);
  function* lines(): Generator<RecordedEvent> {
    yield { t: T0, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade'] };
    yield { t: T0 + 10, k: 'open', epoch: 1 };
    for (let i = 1; i <= frames; i++) {
      const t = T0 + 10 + i * everyMs;
      yield { t, k: 'f', d: JSON.stringify({ ...tradeEnvelope(tradeRecord({ v: String(i), t }), { first: i === 1, sendTime: t }), id: '7' }) };
    }
    yield { t: T0 + days * DAY_MS, k: 'close', code: 1000, clean: true };
  }
  return { recording: { lines: { [Symbol.iterator]: lines } }, frames };
}

export interface Outcome {
  readonly trades: number;
  /** Whether every trade arrived once, in id order. */
  readonly inOrder: boolean;
  readonly completedAt: number | undefined;
  readonly errors: readonly string[];
  readonly maxQueued: number;
}

/** Replays `recording` on `scheduler` (already in its run, for a `TestScheduler`); read the outcome once it has run. */
export function replayLong(scheduler: VirtualTimeScheduler, recording: LazyRecording, days: number): () => Outcome {
  const market = replayMarket(recording, { scheduler });
  let trades = 0;
  let inOrder = true;
  let completedAt: number | undefined;
  const errors: string[] = [];
  market.errors$.subscribe((e) => errors.push(`${e.name}: ${e.message}`));
  market.trades('BTCUSDT').subscribe({
    next: (t) => {
      trades++;
      if (t.v !== String(trades)) inOrder = false;
    },
    error: (e: unknown) => errors.push(`trades: ${String(e)}`),
    complete: () => (completedAt = scheduler.now()),
  });
  const queued = sampleQueuedActions(scheduler, 3_600_000, days * DAY_MS);
  return () => ({ trades, inOrder, completedAt, errors, maxQueued: queued.max() });
}

/** What a clean run looks like: every trade once in order, the end at the recorded close, no error, few actions. */
export function expectClean(outcome: Outcome, frames: number, days: number, chains: ActionChains): void {
  expect({ ...outcome, maxQueued: outcome.maxQueued <= 10 }).toEqual({
    trades: frames,
    inOrder: true,
    completedAt: days * DAY_MS,
    // the recorded close (code 1000) ends the replay: the last socket's close is the end, not an error
    errors: outcome.errors.filter((e) => e.startsWith('ConnectionClosedError')),
    maxQueued: true,
  });
  // each recurring timer (pings, the silence watchdog) is one fresh action at a time: no chain of rescheduled actions
  // (on main: 60 479 pings and ~22 680 watchdog checks chained over a week, whose teardown overflowed the stack)
  expect(chains.longest()).toBeLessThanOrEqual(2);
}

