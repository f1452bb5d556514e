import type {
  ObservedCancel,
  ObservedPing,
  ObservedPong,
  ObservedSubscription,
  PrivateEventKind,
  SentPrivateEvent,
  SentReport,
} from './types';

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
  private readonly byKind: Record<PrivateEventKind, number> = { executionReport: 0, ticketInfo: 0, outboundAccountInfo: 0 };
  private readonly tradeIds = new Map<string, { ids: string[]; seen: Set<string> }>();
  private publicMessages = 0;

  publicMessage(): void {
    this.publicMessages += 1;
  }

  tradesSent(symbol: string, ids: readonly string[]): void {
    let entry = this.tradeIds.get(symbol);
    if (entry === undefined) {
      entry = { ids: [], seen: new Set() };
      this.tradeIds.set(symbol, entry);
    }
    for (const id of ids) {
      if (entry.seen.has(id)) continue;
      entry.seen.add(id);
      entry.ids.push(id);
    }
  }

  privateEvent(event: SentPrivateEvent): void {
    this.privateEvents.push(event);
    this.byKind[event.kind] += 1;
  }

  sent(): SentReport {
    const trades: Record<string, { count: number; ids: string[] }> = {};
    for (const [symbol, e] of this.tradeIds) trades[symbol] = { count: e.ids.length, ids: [...e.ids] };
    return {
      privateEvents: [...this.privateEvents],
      privateByKind: { ...this.byKind },
      trades,
      publicMessages: this.publicMessages,
    };
  }
}
