import type { OutboundAccountInfo } from '../codecs/outboundAccountInfo';
import type { RestBalance } from '../codecs/rest/account';
import { compareDecimal } from '../decimal/compare';
import { type DecimalText } from '../decimal/grammar';

const sameAmounts = (a: BalanceState, b: BalanceState): boolean =>
  compareDecimal(a.free, b.free) === 0 && compareDecimal(a.locked, b.locked) === 0;

/**
 * The current balance of one asset, folded from account updates by {@link folds!balancesState}.
 * Amounts are exact decimal text (`DecimalText`).
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
  readonly free: DecimalText;
  /** Locked amount (`B[].l`). */
  readonly locked: DecimalText;
  /**
   * Event time `E` of the account update this balance comes from, in ms; for a balance from an account
   * snapshot (the user stream's, after it starts and after each gap), the snapshot's time (see "State that
   * heals itself" in docs/user-stream.md).
   */
  readonly eventTime: number;
}

/**
 * Applies one account update to a balance map: an asset's balance is replaced unless the update is older
 * (by `E`) than the applied one, or as old and with the same amounts. At equal `E` the later arrival wins: the
 * service gives every event of one operation the same `E` (e.g. one balance update per fill), so arrival
 * order is the only order there is. A newer update with the same amounts still moves `eventTime` forward:
 * otherwise an older update arriving after it (the service does not push in order) would win over it.
 * Returns the same map when nothing changed.
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
    if (current !== undefined && (candidate.eventTime < current.eventTime || (candidate.eventTime === current.eventTime && sameAmounts(candidate, current)))) {
      continue;
    }
    next ??= new Map(balances);
    next.set(b.a, candidate);
  }
  return next ?? balances;
}

/**
 * Applies an account snapshot (`GET /api/v1/account`) taken at `snapshotTimeMs` (service clock) to a balance
 * map: each asset whose balance is not newer than the snapshot (`eventTime <= snapshotTimeMs`) takes the
 * snapshot's amounts, stamped `snapshotTimeMs`; an asset the snapshot does not list is set to zero the same
 * way; a balance pushed after the snapshot's time stays. So a push older than the snapshot arriving later is
 * ignored (by {@link applyAccountUpdate}), and a newer one wins. Always returns a new map.
 * @internal
 */
export function applyBalanceSnapshot(
  balances: ReadonlyMap<string, BalanceState>,
  snapshot: readonly RestBalance[],
  snapshotTimeMs: number,
): Map<string, BalanceState> {
  const next = new Map(balances);
  const put = (asset: string, free: DecimalText, locked: DecimalText): void => {
    const current = next.get(asset);
    if (current === undefined || current.eventTime <= snapshotTimeMs) next.set(asset, { asset, free, locked, eventTime: snapshotTimeMs });
  };
  const listed = new Set<string>();
  for (const b of snapshot) {
    listed.add(b.asset);
    put(b.asset, b.free, b.locked);
  }
  for (const asset of balances.keys()) if (!listed.has(asset)) put(asset, '0', '0');
  return next;
}
