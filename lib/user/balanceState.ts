import type { OutboundAccountInfo } from '../codecs/outboundAccountInfo';
import { compareDecimal } from './internal/decimal';

const sameAmounts = (a: BalanceState, b: BalanceState): boolean =>
  compareDecimal(a.free, b.free) === 0 && compareDecimal(a.locked, b.locked) === 0;

/**
 * The current balance of one asset, folded from account updates by {@link foldBalances}.
 * Amounts are exact decimal text.
 *
 * @example
 * ```ts
 * import { type BalanceState } from 'ex-streams';
 * const b: BalanceState = { asset: 'BTC', free: '1.5', locked: '0.25', eventTime: 1700000000000 };
 * ```
 */
export interface BalanceState {
  /** Asset (`B[].a`). */
  readonly asset: string;
  /** Free amount (`B[].f`). */
  readonly free: string;
  /** Locked amount (`B[].l`). */
  readonly locked: string;
  /** Event time `E` of the account update this balance comes from, in ms. */
  readonly eventTime: number;
}

/**
 * Applies one account update to a balance map: an asset's balance is replaced unless the update is older
 * (by `E`) than the applied one or carries the same amounts. At equal `E` the later arrival wins: the
 * service gives every event of one operation the same `E` (e.g. one balance update per fill), so arrival
 * order is the only order there is. Returns the same map when nothing changed.
 * @internal
 */
export function applyAccountUpdate(
  balances: ReadonlyMap<string, BalanceState>,
  update: OutboundAccountInfo,
): ReadonlyMap<string, BalanceState> {
  let next: Map<string, BalanceState> | undefined;
  for (const b of update.B) {
    const candidate: BalanceState = { asset: b.a, free: b.f, locked: b.l, eventTime: update.E };
    const current = (next ?? balances).get(b.a);
    if (current !== undefined && (candidate.eventTime < current.eventTime || sameAmounts(candidate, current))) continue;
    next ??= new Map(balances);
    next.set(b.a, candidate);
  }
  return next ?? balances;
}
