import type { ObservedCancel, ObservedPing, ObservedPong, ObservedSubscription } from './observedReport';
import type { PrivateEventKind, SentPrivateEvent, SentReport } from './sentReport';
import type { SentPrivateRecord, TrafficReport } from './chaosTypes';

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyArray<infer E> ? E[] : T[K] };

/**
 * What the simulator observed and sent, for `observed()` and `sent()`.
 * @internal
 */
export class Recorder {
  readonly subscriptions: ObservedSubscription[] = [];
  readonly cancels: ObservedCancel[] = [];
  readonly pings: ObservedPing[] = [];
  readonly pongs: ObservedPong[] = [];
  private readonly privateEvents: SentPrivateEvent[] = [];
  private readonly byKind: Record<PrivateEventKind, number> = { executionReport: 0, ticketInfo: 0, outboundAccountInfo: 0, other: 0 };
  private readonly tradeIds = new Map<string, { count: number; ids: string[]; at: number[]; seen: Set<string> }>();
  private publicMessages = 0;
  private readonly privateLog: SentPrivateRecord[] = [];
  /** Traffic from clients; only filled when `recordTraffic` is on. */
  readonly traffic: Mutable<TrafficReport> = { requests: [], upgrades: [], frames: [] };

  /** `keepTradeIds`: the most trade ids kept per pair (the newest; all are counted). */
  constructor(private readonly keepTradeIds = Infinity) {
    if (!(keepTradeIds >= 1)) throw new Error(`sentTradeIds must be at least 1, got ${keepTradeIds}`);
  }

  publicMessage(): void {
    this.publicMessages += 1;
  }

  /** Trades written to a socket at clock time `at` (the first write of each id is kept). */
  tradesSent(symbol: string, ids: readonly string[], at: number): void {
    let entry = this.tradeIds.get(symbol);
    if (entry === undefined) {
      entry = { count: 0, ids: [], at: [], seen: new Set() };
      this.tradeIds.set(symbol, entry);
    }
    for (const id of ids) {
      if (entry.seen.has(id)) continue;
      entry.seen.add(id);
      entry.ids.push(id);
      entry.at.push(at);
      entry.count++;
    }
    // Past twice the bound, the oldest go at once (a splice per bound's worth of ids, not per id).
    const over = entry.ids.length - this.keepTradeIds;
    if (over > 0 && entry.ids.length >= 2 * this.keepTradeIds) {
      for (const id of entry.ids.splice(0, over)) entry.seen.delete(id);
      entry.at.splice(0, over);
    }
  }

  privateEvent(event: SentPrivateEvent, record: SentPrivateRecord): void {
    this.privateEvents.push(event);
    this.privateLog.push(record);
    this.byKind[event.kind] += 1;
  }

  trafficReport(): TrafficReport {
    return { requests: [...this.traffic.requests], upgrades: [...this.traffic.upgrades], frames: [...this.traffic.frames] };
  }

  sent(faults: SentReport['faults']): SentReport {
    const trades: Record<string, { count: number; ids: string[]; at: number[] }> = {};
    const keep = this.keepTradeIds;
    for (const [symbol, e] of this.tradeIds) trades[symbol] = { count: e.count, ids: e.ids.slice(-keep), at: e.at.slice(-keep) };
    return {
      privateEvents: [...this.privateEvents],
      privateByKind: { ...this.byKind },
      trades,
      publicMessages: this.publicMessages,
      faults: { ...faults },
      privateLog: [...this.privateLog],
    };
  }
}
