import { firstValueFrom } from 'rxjs';
import type { RestClient } from '../../lib/rest/types';
import type { BalanceState } from '../../lib/user/balanceState';
import type { OrderState } from '../../lib/user/orderState';

/**
 * Orders and balances in one comparable shape: order id → `status executedQty cumulativeQuoteQty`, the open
 * order ids (sorted), asset → `free/locked`. Built from the simulator's answers or from a user stream's state,
 * so the resync specs and the soak's resync check compare them with `toEqual`.
 */
export interface Books {
  readonly orders: ReadonlyMap<string, string>;
  readonly open: readonly string[];
  readonly balances: ReadonlyMap<string, string>;
}

const isOpen = (status: string): boolean => status === 'NEW' || status === 'PARTIALLY_FILLED';

/** The simulator's books over REST: `getOrder` for each order of `ids`, the open orders, the account. */
export async function simulatorBooks(rest: RestClient, ids: readonly string[]): Promise<Books> {
  const orders = new Map<string, string>();
  for (const orderId of ids) {
    const o = await firstValueFrom(rest.getOrder({ orderId }));
    orders.set(orderId, `${o.status} ${o.executedQty} ${o.cumulativeQuoteQty}`);
  }
  const open = (await firstValueFrom(rest.openOrders())).map((o) => o.orderId).sort();
  const balances = new Map((await firstValueFrom(rest.account())).balances.map((b) => [b.asset, `${b.free}/${b.locked}`]));
  return { orders, open, balances };
}

/** A user stream's state (`orders$`, `balances$`) as {@link Books}. */
export function stateBooks(
  orders: ReadonlyMap<string, OrderState> | undefined,
  balances: ReadonlyMap<string, BalanceState> | undefined,
): Books {
  const all = [...(orders?.values() ?? [])];
  return {
    orders: new Map(all.map((o) => [o.orderId, `${o.status} ${o.filledQuantity} ${o.filledQuoteQuantity}`])),
    open: all.filter((o) => isOpen(o.status)).map((o) => o.orderId).sort(),
    balances: new Map([...(balances?.values() ?? [])].map((b) => [b.asset, `${b.free}/${b.locked}`])),
  };
}
