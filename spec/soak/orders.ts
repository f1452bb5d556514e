import { firstValueFrom } from 'rxjs';
import { RequestFailedError, RequestRejectedError } from '../../lib/errors';
import type { RestClient, RestRequest } from '../../lib/rest/types';

/** What the order placer did. */
export interface OrderStats {
  placed: number;
  accepted: number;
  /** Answered with a rejection (injected 429/503, time window, insufficient balance). */
  rejected: number;
  /** Never answered (network). */
  failed: number;
  canceled: number;
  twoFactorCalls: number;
  /** Errors of any other type: a bug. */
  readonly unexpected: Error[];
  /** Every error the placer saw, for the secrets check. */
  readonly errors: Error[];
}

const ORDER = '/api/v1/spot/order';
/** Taker quantities: small enough that buying and selling in turn keeps the balances steady. */
const QUANTITY: Record<string, string> = { BTCUSDT: '0.001', ETHUSDT: '0.01', SOLUSDT: '0.1' };

/**
 * Places orders in turn while running: taker BUY (far above the market), taker SELL (far below, at 0.01: on the
 * tick of every simulated symbol, which the simulator's price filter enforces), a resting BUY far below the
 * market and its cancel; and every 8th step a 2FA withdrawal. One call at a time.
 */
export function startOrders(rest: RestClient, symbols: readonly string[], periodMs: number): { stop(): Promise<void>; stats: OrderStats } {
  const stats: OrderStats = { placed: 0, accepted: 0, rejected: 0, failed: 0, canceled: 0, twoFactorCalls: 0, unexpected: [], errors: [] };
  let running = true;
  let step = 0;
  let resting: string | undefined;
  const call = async <A>(request: RestRequest<A>): Promise<A | undefined> => {
    try {
      return await firstValueFrom(rest.request<A>(request));
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      stats.errors.push(error);
      if (error instanceof RequestRejectedError) stats.rejected += 1;
      else if (error instanceof RequestFailedError) stats.failed += 1;
      else stats.unexpected.push(error);
      return undefined;
    }
  };
  const once = async (): Promise<void> => {
    const symbol = symbols[step % symbols.length]!;
    const quantity = QUANTITY[symbol] ?? '0.01';
    const kind = step % 4;
    step += 1;
    if (step % 8 === 0) {
      stats.twoFactorCalls += 1;
      await call({ method: 'POST', path: '/api/v1/account/withdraw', security: 'USER_DATA', twoFactor: true, body: { coin: 'USDT', amount: '1' } });
      return;
    }
    if (kind === 3 && resting !== undefined) {
      const orderId = resting;
      resting = undefined;
      if (await call({ method: 'DELETE', path: ORDER, security: 'TRADE', query: { orderId } })) stats.canceled += 1;
      return;
    }
    const side = kind === 1 ? 'SELL' : 'BUY';
    const price = kind === 0 ? '1000000' : kind === 1 ? '0.01' : '1';
    stats.placed += 1;
    const answer = await call<{ orderId: string }>({
      method: 'POST',
      path: ORDER,
      security: 'TRADE',
      body: { symbol, side, type: 'LIMIT', timeInForce: 'GTC', quantity, price },
    });
    if (answer === undefined) return;
    stats.accepted += 1;
    if (kind === 2) resting = String(answer.orderId);
  };
  const done = (async () => {
    while (running) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, periodMs));
    }
  })();
  return {
    stats,
    stop: async () => {
      running = false;
      await done;
    },
  };
}
