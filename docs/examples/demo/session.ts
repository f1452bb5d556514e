/**
 * One demo run as a single observable of events: the public and private feeds, the REST calls, the forced
 * disconnect, a one-second tick. Unsubscribing it closes every socket and the listen key.
 */
import {
  asyncScheduler,
  catchError,
  combineLatest,
  concat,
  defer,
  EMPTY,
  first,
  map,
  merge,
  mergeMap,
  type Observable,
  of,
  ReplaySubject,
  type Subject,
  switchMap,
  take,
  tap,
  timer,
  interval,
} from 'rxjs';
import { marketStreams, orderBook, restClient, userStream, type RestClient } from '../../../lib/index';
import type { ListenKeyApi } from '../../../lib/connection';
import { symbolRules, type SymbolRules } from '../../../lib/orders/index';
import type { DemoOptions } from './args';
import { cancelOverRest, orderScript } from './orders';
import { marketFeed, userFeed } from './feeds';
import { describeError } from './describe';
import { redactKey } from './format';
import type { DemoEvent } from './model';
import { planOrders, type PlannedOrder } from './plan';
import type { Endpoints } from './target';

/** When things happen, relative to the start (ms). Derived from the run time by {@link timeline}. */
export interface Timeline {
  readonly dropAtMs: number;
  readonly cancelAtMs: number;
  readonly fillPauseMs: number;
}

/**
 * The forced disconnect at half time; the cancel at 70% (20 s when the run is unbounded) on a deployment, and on
 * the simulator right after the disconnect, while the private socket is down (see {@link demoSession}).
 */
export const timeline = (durationMs: number | undefined): Timeline => ({
  dropAtMs: durationMs === undefined ? 15_000 : durationMs / 2,
  cancelAtMs: durationMs === undefined ? 20_000 : durationMs * 0.7,
  fillPauseMs: 1_000,
});

/** Simulated market steps while the sockets are down: more than the 60-trade replay, so a trade gap shows. */
const STEPS_WHILE_DOWN = 80;
/** Listen-key keepalive on the simulator, so that a 30 s demo shows extensions (default 30 min). */
const SIMULATOR_KEEPALIVE_MS = 10_000;

/** The listen-key calls of `rest`, reporting each one (with the key redacted) on `notes`. */
const reportingListenKeys = (rest: RestClient, notes: Subject<DemoEvent>): ListenKeyApi => ({
  createListenKey: () => rest.createListenKey().pipe(tap((key) => notes.next({ type: 'listenKey', action: 'obtained', redactedKey: redactKey(key) }))),
  extendListenKey: (key) => rest.extendListenKey(key).pipe(tap(() => notes.next({ type: 'listenKey', action: 'extended', redactedKey: redactKey(key) }))),
  closeListenKey: (key) => rest.closeListenKey(key).pipe(tap(() => notes.next({ type: 'listenKey', action: 'closed', redactedKey: redactKey(key) }))),
});

const note = (text: string, level: 'info' | 'warn' = 'info'): DemoEvent => ({ type: 'note', text, level });

/** One run: its events, and what to do after they stopped. */
export interface DemoSession {
  /** Every event of the run; unsubscribing closes every socket and the listen key. */
  readonly events$: Observable<DemoEvent>;
  /**
   * After `events$` was unsubscribed: on a real deployment, cancels the demo orders that may still rest on the
   * book (the demo never leaves orders behind on a real account). Nothing on the simulator, which is closed anyway.
   */
  readonly cleanup$: Observable<DemoEvent>;
}

/** Sets up one run. `notes` carries events produced outside the pipeline (listen-key calls). */
export function demoSession(endpoints: Endpoints, options: DemoOptions, notes: Subject<DemoEvent>): DemoSession {
  const { symbols, durationMs } = options;
  const sim = endpoints.simulator;
  const when = timeline(durationMs);
  const startedAt = asyncScheduler.now();

  const side = endpoints.privateSide;
  const rest = side && restClient(side.rest);
  // With `rest`, the public stream's pongs keep the signing clock on the service's time.
  const market = marketStreams({ url: endpoints.publicUrl, ...(rest && { rest }) });
  // With the whole client as `rest` (its open orders, order and account calls), `orders$` and `balances$` heal
  // themselves: seeded at the first open, resynced over REST after every gap, and marked `authoritative`.
  const user =
    side &&
    rest &&
    userStream({
      url: side.url,
      rest: { ...rest, ...reportingListenKeys(rest, notes) },
      ...(sim && { listenKeyOptions: { keepAliveIntervalMs: SIMULATOR_KEEPALIVE_MS } }),
    });

  const book = (symbol: string) => market.depth(symbol).pipe(orderBook({ levels: 5 }));
  const [restSymbol = '', fillSymbol = restSymbol] = symbols;

  // On the simulator the cancel is sent while every socket is down: its push is lost, and the resync after the
  // reconnection is what shows the order CANCELED (`orders$` heals itself; the log says "(REST snapshot)").
  const dropped$ = new ReplaySubject<void>(1);
  const cancelAt$ = sim ? dropped$.pipe(take(1)) : timer(new Date(startedAt + when.cancelAtMs));

  let placed: readonly PlannedOrder[] = [];
  // The symbols' rules (tick, step, minimums); none when exchangeInfo fails (the orders are then skipped).
  const rules$ = defer(() => rest?.exchangeInfo() ?? EMPTY).pipe(
    map(symbolRules),
    catchError((error: Error) => {
      notes.next(note(`exchangeInfo failed: ${describeError(error)}`, 'warn'));
      return of(new Map<string, SymbolRules>());
    }),
  );
  const orders$ =
    user && rest && options.placeOrders
      ? // The orders are placed once the state is authoritative (seeded from the account and the open orders),
        // fitted to the symbols' rules (tick, step) and checked against them before anything is sent.
        user.orders$.pipe(
          first((s) => s.authoritative),
          switchMap(() => combineLatest([book(restSymbol), book(fillSymbol), rules$]).pipe(take(1))),
          mergeMap(([restBook, fillBook, rules]) => {
            const plan = planOrders({ restBook, fillBook, rules, simulator: sim !== undefined, runId: String(startedAt % 1e9) });
            placed = plan ?? [];
            if (plan === undefined) return of(note('no bid or ask yet, or a symbol without rules: orders skipped', 'warn'));
            const [a, b, c] = plan;
            return a && b && c ? orderScript(user, [a, b, c], { pauseMs: when.fillPauseMs, cancelAt$, options: { rules } }) : EMPTY;
          }),
        )
      : of(note(rest ? 'order placement off (add --place-orders to place the demo orders)' : 'private side off: no orders'));

  const disconnect$ = sim
    ? timer(when.dropAtMs).pipe(
        mergeMap(() =>
          concat(
            of(
              note(
                `simulator: dropping every socket now (control surface), then ${STEPS_WHILE_DOWN} market steps while we are away` +
                  (options.placeOrders ? ' and a cancel over REST' : ''),
                'warn',
              ),
            ),
            defer(() => {
              sim.drop({ stream: 'all' });
              sim.step(STEPS_WHILE_DOWN);
              dropped$.next();
              return EMPTY;
            }),
          ),
        ),
      )
    : EMPTY;

  const cleanup$ = defer(() =>
    rest && !sim ? concat(...placed.filter((o) => o.role !== 'fills').map((o) => cancelOverRest(rest, o))) : EMPTY,
  );

  const events$ = merge(
    of(note(`connecting to ${endpoints.label}: ${symbols.join(', ')}`)),
    notes,
    marketFeed(market, symbols),
    // The service's clock (local clock + the REST client's offset, and its error): how long after its event time
    // a fill is shown on orders$.
    user && rest
      ? userFeed(user, () => ({ now: asyncScheduler.now() + rest.serverTimeOffsetMs(), errorMs: rest.serverTimeOffsetErrorMs() }))
      : EMPTY,
    orders$,
    disconnect$,
    interval(1000).pipe(map((): DemoEvent => ({ type: 'tick' }))),
  );
  return { events$, cleanup$ };
}
