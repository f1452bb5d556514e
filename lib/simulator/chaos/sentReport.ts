import type { FaultCounts, SentPrivateRecord } from './chaosTypes';

/**
 * Kinds of private events.
 *
 * @example
 * ```ts
 * import { startSimulator, type PrivateEventKind } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const kind: PrivateEventKind = 'executionReport';
 * const executionReports = sim.sent().privateByKind[kind];
 * ```
 */
export type PrivateEventKind = 'executionReport' | 'ticketInfo' | 'outboundAccountInfo' | 'other';

/**
 * A private event the simulator pushed, in `sent().privateEvents` (once per push, whatever the number of
 * sessions; a duplicated push appears twice).
 *
 * @example
 * ```ts
 * import { startSimulator, type SentPrivateEvent } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test places orders
 * const fills: SentPrivateEvent[] = sim.sent().privateEvents.filter((e) => e.kind === 'executionReport' && e.status === 'FILLED');
 * ```
 */
export interface SentPrivateEvent {
  readonly kind: PrivateEventKind;
  readonly E: number;
  /** Order id (executionReport), ticket id (ticketInfo), '' (outboundAccountInfo), the event's `e` (other: `pushPrivateEvent`). */
  readonly id: string;
  /** Order status for executionReport. */
  readonly status?: string;
  /** Sessions it was written to. */
  readonly sessions: number;
}

/**
 * What the simulator sent, returned by `sent()` (and `GET /__control/sent`): private events, public trades
 * and messages, fault counters and the log of private pushes.
 *
 * @example
 * ```ts
 * import { startSimulator, type SentReport } from 'ex-streams/simulator';
 * const sim = await startSimulator({ symbols: ['BTCUSDT'] });
 * // ... run the client under test
 * const sent: SentReport = sim.sent();
 * const tradeIds = sent.trades['BTCUSDT']?.ids ?? []; // every public trade the client could have seen
 * console.log(sent.publicMessages, sent.faults.drop, sent.privateLog.length);
 * ```
 */
export interface SentReport {
  readonly privateEvents: readonly SentPrivateEvent[];
  readonly privateByKind: Readonly<Record<PrivateEventKind, number>>;
  /**
   * Public trades written to a socket at least once, per symbol: ids in order of first write, and `at[i]` the
   * clock time (ms) `ids[i]` was first written (a half-open socket counts as written: the server cannot tell);
   * the newest `sentTradeIds` of them (a simulator option, default all), `count` counting every one.
   */
  readonly trades: Readonly<Record<string, { readonly count: number; readonly ids: readonly string[]; readonly at: readonly number[] }>>;
  /** Public data messages sent (all connections). */
  readonly publicMessages: number;
  /** Faults injected and their effects, by kind. */
  readonly faults: FaultCounts;
  /** Every private event push with its sequence number, copy, push time and JSON text. */
  readonly privateLog: readonly SentPrivateRecord[];
}
