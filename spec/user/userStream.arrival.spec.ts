import fc from 'fast-check';
import { EMPTY, from, map, of, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ExecutionReport } from '../../lib/codecs/executionReport';
import type { OutboundAccountInfo } from '../../lib/codecs/outboundAccountInfo';
import type { RestOrder } from '../../lib/codecs/rest/order';
import { compareDecimal } from '../../lib/decimal/compare';
import { type DecimalText } from '../../lib/decimal/grammar';
import { balancesState, type BalancesState } from '../../lib/user/balancesState';
import { statusRank, type OrderState } from '../../lib/user/orderState';
import { ordersState } from '../../lib/user/ordersState';
import { account, fakeUserStream, report } from './fixtures';

/**
 * orders$ and balances$ fold each event on arrival (issue 26, "State on arrival"): whatever the arrival order
 * (shuffled, duplicated, seconds late), every state emitted is the fold of what arrived so far, no order moves
 * backwards, and the last state is the fold in E order.
 */

type Event = ExecutionReport | OutboundAccountInfo;

/** A whole number as decimal text. */
const dec = (n: number): DecimalText => String(n) as DecimalText;

/** The true life of a few orders and balances, E strictly increasing across everything. */
const historyArb = fc
  .record({
    orders: fc.array(
      fc.record({ fills: fc.integer({ min: 0, max: 3 }), end: fc.constantFrom('FILLED', 'CANCELED', 'open') }),
      { minLength: 1, maxLength: 4 },
    ),
    balances: fc.array(fc.record({ asset: fc.constantFrom('BTC', 'USDT'), free: fc.integer({ min: 0, max: 999 }) }), { maxLength: 6 }),
  })
  .map(({ orders, balances }) => {
    const events: Event[] = [];
    let E = 10;
    orders.forEach((o, k) => {
      const i = String(1_900_000_000_000_000_001n + BigInt(k)); // 64-bit ids, as the service's
      const q = dec(o.fills + 1);
      events.push(report({ i, X: 'NEW', q, z: '0', Z: '0', E: (E += 7), U: E }));
      for (let f = 1; f <= o.fills; f++) {
        events.push(report({ i, X: 'PARTIALLY_FILLED', q, z: dec(f), Z: dec(f * 100), E: (E += 7), U: E }));
      }
      if (o.end === 'FILLED') events.push(report({ i, X: 'FILLED', q, z: q, Z: dec(Number(q) * 100), E: (E += 7), U: E }));
      if (o.end === 'CANCELED') events.push(report({ i, X: 'CANCELED', q, z: dec(o.fills), Z: dec(o.fills * 100), E: (E += 7), U: E }));
    });
    for (const b of balances) events.push(account((E += 7), [[b.asset, dec(b.free), '0']]));
    return events.sort((a, b) => a.E - b.E);
  });

/** Each event arrives once or twice, each copy late by up to 3 s. */
const arrivalsArb = (events: readonly Event[]) =>
  fc
    .array(fc.record({ delayMs: fc.integer({ min: 0, max: 3000 }), twice: fc.boolean(), secondDelayMs: fc.integer({ min: 0, max: 3000 }) }), {
      minLength: events.length,
      maxLength: events.length,
    })
    .map((plan) => {
      const copies: { at: number; seq: number; event: Event }[] = [];
      plan.forEach((p, n) => {
        copies.push({ at: events[n]!.E + p.delayMs, seq: copies.length, event: events[n]! });
        if (p.twice) copies.push({ at: events[n]!.E + p.secondDelayMs, seq: copies.length, event: events[n]! });
      });
      return copies.sort((a, b) => a.at - b.at || a.seq - b.seq);
    });

const showOrder = (o: OrderState): string => `${o.orderId}:${o.status}:${o.filledQuantity}`;
const showOrders = (orders: Iterable<OrderState>): string => [...orders].map(showOrder).sort().join(' ');
const showBalances = (b: BalancesState): string =>
  [...b.values()].map((x) => `${x.asset}=${x.free}@${x.eventTime}`).sort().join(' ');

/** What the public operators fold from `events`, taken in that order: every distinct state, as text. */
function foldedStates(events: readonly Event[]): { orders: string[]; balances: string[] } {
  const out = { orders: [] as string[], balances: [] as string[] };
  from(events.filter((e): e is ExecutionReport => e.e === 'executionReport'))
    .pipe(ordersState({ maxFinishedOrders: Infinity }), map((s) => showOrders(s.values())), toArray())
    .subscribe((s) => (out.orders = s));
  from(events.filter((e): e is OutboundAccountInfo => e.e === 'outboundAccountInfo'))
    .pipe(balancesState(), map(showBalances), toArray())
    .subscribe((s) => (out.balances = s));
  return out;
}

/** Across successive states (each the orders it held), no order's status rank or filled quantity decreases. */
function expectNeverBackwards(states: readonly (readonly OrderState[])[]): void {
  const last = new Map<string, OrderState>();
  for (const each of states) {
    for (const o of each) {
      const before = last.get(o.orderId);
      if (before !== undefined) {
        expect(statusRank(o.status)).toBeGreaterThanOrEqual(statusRank(before.status));
        expect(compareDecimal(o.filledQuantity, before.filledQuantity)).toBeGreaterThanOrEqual(0);
      }
      last.set(o.orderId, o);
    }
  }
}

describe('userStream: state on arrival (property)', () => {
  it('emits the fold of what arrived so far, never moves an order backwards, and ends at the fold in E order', () => {
    fc.assert(
      fc.property(
        historyArb.chain((events) => fc.tuple(fc.constant(events), arrivalsArb(events))),
        ([events, arrivals]) => {
          const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
          const orders: { at: number; state: string; each: OrderState[] }[] = [];
          const balances: { at: number; state: string }[] = [];
          testScheduler.run(() => {
            // A long hold, so nothing of the states can come from the reorder buffer.
            const { ws, user } = fakeUserStream(testScheduler, { reorder: { maxDelayMs: 10_000 } });
            const subs = user.orders$.subscribe((s) => orders.push({ at: testScheduler.now(), state: showOrders(s.values()), each: [...s.values()] }));
            subs.add(user.balances$.subscribe((s) => balances.push({ at: testScheduler.now(), state: showBalances(s) })));
            // Stops before the hold would release anything (and ends the heartbeat timers).
            testScheduler.schedule(() => subs.unsubscribe(), arrivals[arrivals.length - 1]!.at + 1);
            // Copies arriving at the same time share a frame, in arrival order.
            const frames = new Map<number, Event[]>();
            for (const a of arrivals) frames.set(a.at, [...(frames.get(a.at) ?? []), a.event]);
            for (const [at, frame] of frames) ws.at(at, (s) => s.receive(frame));
          });
          const arrived = arrivals.map((a) => a.event);
          // 1. Every state, at the time it was emitted, is the public fold of the arrivals, in the arrival order.
          const byArrival = foldedStates(arrived);
          expect(orders.map((o) => o.state)).toEqual(byArrival.orders);
          expect(balances.map((b) => b.state)).toEqual(byArrival.balances);
          // ... emitted when its event arrived: no hold, no timer in between.
          const firstChange = (states: string[], at: number[]) => states.map((_, n) => at[n]!);
          const arrivalTimes = new Set(arrivals.map((a) => a.at));
          for (const at of firstChange(orders.map((o) => o.state), orders.map((o) => o.at))) expect(arrivalTimes.has(at)).toBe(true);
          // 2. No order moves backwards: status rank and filled quantity never decrease.
          expectNeverBackwards(orders.map((o) => o.each));
          // 3. The last state is the fold in E order of the events (once each).
          const inOrder = foldedStates(events);
          expect(orders[orders.length - 1]?.state).toBe(inOrder.orders[inOrder.orders.length - 1]);
          expect(balances[balances.length - 1]?.state).toBe(inOrder.balances[inOrder.balances.length - 1]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('with a REST snapshot of the truth at some moment merged in between, still never moves backwards and ends at the fold in E order', () => {
    fc.assert(
      fc.property(
        historyArb.chain((events) => fc.tuple(fc.constant(events), arrivalsArb(events), fc.integer({ min: 0, max: events.length }))),
        ([events, arrivals, cut]) => {
          // The open orders as REST saw them after the first `cut` events (in E order).
          const known = new Map<string, ExecutionReport>();
          for (const e of events.slice(0, cut)) if (e.e === 'executionReport') known.set(e.i, e);
          const open: RestOrder[] = [...known.values()]
            .filter((r) => r.X === 'NEW' || r.X === 'PARTIALLY_FILLED')
            .map((r) => ({
              symbol: r.s, orderId: r.i, clientOrderId: r.c, price: r.p as RestOrder['price'], origQty: r.q as RestOrder['origQty'],
              executedQty: r.z as RestOrder['executedQty'], cumulativeQuoteQty: r.Z as RestOrder['cumulativeQuoteQty'],
              status: r.X, timeInForce: 'GTC', type: 'LIMIT', side: r.S, time: r.O, updateTime: r.U!,
            }) as RestOrder);
          const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
          const orders: OrderState[][] = [];
          testScheduler.run(({ cold }) => {
            const snapshotAt = 1 + (arrivals[Math.min(cut, arrivals.length - 1)]?.at ?? 0); // lands among the arrivals
            const rest = {
              createListenKey: () => of('key-1'),
              extendListenKey: () => EMPTY,
              closeListenKey: () => EMPTY,
              openOrders: () => cold(`${snapshotAt}ms (a|)`, { a: open }),
              // An order the snapshot no longer lists is asked alone: its true last state.
              getOrder: (ref: { readonly orderId?: string }) => {
                const truth = [...events].reverse().find((e): e is ExecutionReport => e.e === 'executionReport' && e.i === ref.orderId)!;
                return of({ ...open[0], symbol: truth.s, orderId: truth.i, status: truth.X, executedQty: truth.z, cumulativeQuoteQty: truth.Z, origQty: truth.q, price: truth.p, updateTime: truth.U } as RestOrder);
              },
              account: () => of({ balances: [] }),
            };
            const { ws, user } = fakeUserStream(testScheduler, { listenKey$: undefined, rest, reorder: { maxDelayMs: 10_000 } });
            const subs = user.orders$.subscribe((s) => orders.push([...s.values()]));
            testScheduler.schedule(() => subs.unsubscribe(), Math.max(snapshotAt, arrivals[arrivals.length - 1]!.at) + 10);
            const frames = new Map<number, Event[]>();
            for (const a of arrivals) frames.set(a.at, [...(frames.get(a.at) ?? []), a.event]);
            for (const [at, frame] of frames) ws.at(at, (s) => s.receive(frame));
          });
          expectNeverBackwards(orders);
          const inOrder = foldedStates(events);
          expect(showOrders(orders[orders.length - 1] ?? [])).toBe(inOrder.orders[inOrder.orders.length - 1] ?? '');
        },
      ),
      { numRuns: 100 },
    );
  });
});
