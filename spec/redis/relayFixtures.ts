// What the relay specs share (spec/redis, spec/redis-slow): the pairs, fast reconnects, and the gateway's view of the venue.
import { WebSocket } from 'ws';
import { compareDecimal } from '../../lib/decimal/compare';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';

/** The pairs the relay specs follow (one of them quoted in BTC). */
export const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'ETHBTC'];

/** `marketStreams` options for a quick test: subscriptions paced fast, reconnects within 200 ms, no jitter. */
export const MARKET = { resubscribeRatePerSecond: 200, subscribeBurst: 20, connection: { reconnect: { minDelayMs: 20, maxDelayMs: 200, random: () => 0.5 } } };

/** `ws`, every text frame also pushed to `frames` (what the gateway received). */
export function recordingWs(frames: string[]): WebSocketCtor {
  return class extends WebSocket {
    constructor(url: string) {
      super(url);
      this.on('message', (data, isBinary) => {
        if (!isBinary) frames.push(data.toString());
      });
    }
  } as unknown as WebSocketCtor;
}

/** The distinct trade ids of `symbol` in the trade frames among `frames`, ascending. */
export function tradeIdsOf(frames: readonly string[], symbol: string): string[] {
  const ids = new Set<string>();
  for (const text of frames) {
    const m = JSON.parse(text) as { symbol?: string; topic?: string; data?: { v: string }[] };
    if (m.symbol === symbol && m.topic === 'trade') for (const r of m.data ?? []) ids.add(r.v);
  }
  return [...ids].sort(compareDecimal);
}
