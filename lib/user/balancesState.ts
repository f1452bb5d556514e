import { filter, map, scan, type OperatorFunction } from 'rxjs';
import type { OutboundAccountInfo } from '../codecs/outboundAccountInfo';
import { applyAccountUpdate, type BalanceState } from './balanceState';

/**
 * The balance of every asset seen, keyed by asset.
 *
 * @example
 * ```ts
 * import type { OutboundAccountInfo } from 'ex-streams';
 * import { balancesState, type BalancesState } from 'ex-streams/folds';
 * import type { Observable } from 'rxjs';
 *
 * declare const accountUpdates$: Observable<OutboundAccountInfo>;
 * const freeUsdt = (balances: BalancesState): string => balances.get('USDT')?.free ?? '0';
 * accountUpdates$.pipe(balancesState()).subscribe((balances) => console.log(freeUsdt(balances))); // '99000.5'
 * ```
 */
export type BalancesState = ReadonlyMap<string, BalanceState>;

/**
 * Folds account updates (`outboundAccountInfo`) into the current balance of every asset.
 *
 * Each update lists the assets that may have moved; an asset's balance is replaced only by an update with
 * an event time `E` at least as late (an older one, or one with the same amounts, is ignored). The
 * service stamps every event of one operation with the same `E`, so at equal `E` the later arrival wins;
 * with distinct times the result does not depend on arrival order. An update that changes nothing emits
 * nothing.
 * Each emission is a new immutable map. Amounts stay exact decimal text.
 *
 * ```
 * updates:  --u1(E=2)---u0(E=1, stale)---u3(E=3)--|
 * balances: --a-------------------------b--------|
 * ```
 *
 * @example
 * ```ts
 * import { userStream } from 'ex-streams';
 * import type { ListenKeyApi } from 'ex-streams/connection';
 * import { balancesState } from 'ex-streams/folds';
 * declare const url: string, rest: ListenKeyApi;
 * userStream({ url, rest }).accountUpdates$.pipe(balancesState())
 *   .subscribe((b) => console.log(b.get('USDT')?.free)); // '1000.5'
 * ```
 */
export function balancesState(): OperatorFunction<OutboundAccountInfo, BalancesState> {
  return (source) =>
    source.pipe(
      scan(
        (acc: { readonly balances: BalancesState; readonly changed: boolean }, update: OutboundAccountInfo) => {
          const balances = applyAccountUpdate(acc.balances, update);
          return { balances, changed: balances !== acc.balances };
        },
        { balances: new Map<string, BalanceState>(), changed: false },
      ),
      filter((acc) => acc.changed),
      map((acc) => acc.balances),
    );
}
