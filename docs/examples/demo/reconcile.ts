/**
 * The demo's own reconciliation after a user-stream gap, in one place so that it can go: the service does not
 * replay private events pushed while the socket was down, so the demo asks the account and the open orders over
 * REST at start and after every gap (`user.gaps$`). Once `userStream({ rest })` seeds and resyncs its own
 * `orders$` / `balances$` after each gap, this file and its one use in `session.ts` are deleted.
 */
import { catchError, concat, exhaustMap, forkJoin, map, type Observable, of } from 'rxjs';
import type { RestClient, UserStream } from '../../../lib/index';
import { describeError } from './describe';
import type { DemoEvent } from './model';

/** Balances and open orders over the typed calls (`rest.account()`, `rest.openOrders()`), as one event. */
export function accountSnapshot(rest: RestClient, reason: string): Observable<DemoEvent> {
  return forkJoin([rest.account(), rest.openOrders()]).pipe(
    map(([account, open]): DemoEvent => ({ type: 'accountSnapshot', balances: account.balances, openOrders: open.length, reason })),
    catchError((error: Error) => of<DemoEvent>({ type: 'note', text: `account query (${reason}) failed: ${describeError(error)}`, level: 'warn' })),
  );
}

/** A snapshot at start, then one after each user-stream gap (a gap during a snapshot is covered by it). */
export function reconcileAfterGaps(user: Pick<UserStream, 'gaps$'>, rest: RestClient): Observable<DemoEvent> {
  return concat(accountSnapshot(rest, 'start'), user.gaps$.pipe(exhaustMap(() => accountSnapshot(rest, 'reconciling after the gap'))));
}
