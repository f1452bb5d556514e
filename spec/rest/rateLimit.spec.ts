import { firstValueFrom, merge, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { isOrderPlacement, rateGate } from '../../lib/rest/rateLimit';
import { restClient } from '../../lib/rest/restClient';
import { ConfigError } from '../../lib/errors';
import { startHttpServer } from '../helpers/httpServer';

describe('rateGate', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('queues calls beyond requestsPerSecond to the next free slot of a sliding one-second window, in order', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const gate = rateGate({ requestsPerSecond: 2 }, testScheduler);
      const calls = ['a', 'b', 'c', 'd', 'e'].map((v) => cold(`(${v}|)`));
      expectObservable(merge(...calls.map((c) => gate(c, false)))).toBe('(ab) 996ms (cd) 996ms (e|)');
      const starts = ['(^!)', '(^!)', '1000ms (^!)', '1000ms (^!)', '2000ms (^!)'];
      calls.forEach((c, i) => expectSubscriptions(c.subscriptions).toBe(starts[i]!));
    });
  });

  it('counts a call when it starts: a slow answer does not hold a slot', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gate = rateGate({ requestsPerSecond: 1 }, testScheduler);
      const slow = cold('1500ms (a|)');
      const next = cold('(b|)');
      expectObservable(merge(gate(slow, false), gate(next, false))).toBe('1000ms b 499ms (a|)');
    });
  });

  it('counts a call of weight n as n starts (HashKey request weights), a weight above the limit as the limit', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gate = rateGate({ requestsPerSecond: 5 }, testScheduler);
      // weight 5 fills the second; the next call of weight 1 waits a second; weight 9 counts as 5 and waits for all.
      const calls = merge(gate(cold('(h|)'), false, 5), gate(cold('(a|)'), false), gate(cold('(b|)'), false, 9));
      expectObservable(calls).toBe('h 999ms a 999ms (b|)');
    });
  });

  it('queriesPerSecond limits the calls other than placements; placements only by ordersPerSecond (HashKey: 2 and 10)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gate = rateGate({ queriesPerSecond: 1, ordersPerSecond: 3 }, testScheduler);
      const calls = merge(gate(cold('(q|)'), false), gate(cold('(a|)'), true), gate(cold('(b|)'), true), gate(cold('(r|)'), false), gate(cold('(c|)'), true));
      // Calls start in order: c, after the query r, waits with it.
      expectObservable(calls).toBe('(qab) 995ms (rc|)');
    });
  });

  it('a batch placement counts against ordersPerSecond', () => {
    expect(isOrderPlacement({ method: 'POST', path: '/api/v1.1/spot/batchOrders' })).toBe(true);
    expect(isOrderPlacement({ method: 'POST', path: '/api/v1.1/spot/order' })).toBe(true);
    expect(isOrderPlacement({ method: 'DELETE', path: '/api/v1/spot/cancelOrderByIds' })).toBe(false);
  });

  it('limits order placements by ordersPerSecond, other calls by requestsPerSecond only', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gate = rateGate({ requestsPerSecond: 10, ordersPerSecond: 1 }, testScheduler);
      const calls = merge(gate(cold('(o|)'), true), gate(cold('(r|)'), false), gate(cold('(p|)'), true), gate(cold('(s|)'), false));
      // Calls start in order: the request after the second order waits with it.
      expectObservable(calls).toBe('(or) 996ms (ps|)');
    });
  });

  it('frees the slot of a call unsubscribed while it waits', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const gate = rateGate({ requestsPerSecond: 1 }, testScheduler);
      const first = cold('(a|)');
      const dropped = cold('(b|)');
      const third = cold('(c|)');
      expectObservable(gate(first, false)).toBe('(a|)');
      expectObservable(gate(dropped, false), '10ms ^ 490ms !').toBe('');
      // Without the release the third call would wait for 2000 ms.
      expectObservable(gate(third, false), '600ms ^').toBe('1000ms (c|)');
      expectSubscriptions(dropped.subscriptions).toBe([]);
      expectSubscriptions(third.subscriptions).toBe('1000ms (^!)');
    });
  });

  it('passes calls through untouched without limits, and rejects limits that cannot work', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gate = rateGate(undefined, testScheduler);
      const calls = ['a', 'b', 'c'].map((v) => cold(`(${v}|)`));
      expectObservable(merge(...calls.map((c) => gate(c, true)))).toBe('(abc|)');
    });
    expect(() => rateGate({ requestsPerSecond: 0 }, testScheduler)).toThrow(ConfigError);
    expect(() => rateGate({ ordersPerSecond: Number.NaN }, testScheduler)).toThrow(/^rateLimit.ordersPerSecond must be a positive number/);
  });

  it('counts POSTs of new orders as order placements, not tests, cancels or queries', () => {
    expect(isOrderPlacement({ method: 'POST', path: '/api/v1/spot/order' })).toBe(true);
    expect(isOrderPlacement({ method: 'POST', path: '/openapi/v1/order' })).toBe(true);
    expect(isOrderPlacement({ method: 'POST', path: '/api/v1/spot/orderTest' })).toBe(false);
    expect(isOrderPlacement({ method: 'DELETE', path: '/api/v1/spot/order' })).toBe(false);
    expect(isOrderPlacement({ method: 'GET', path: '/api/v1/spot/order' })).toBe(false);
  });
});

describe('restClient rateLimit', () => {
  it('holds the calls beyond the limit on the client: the server sees them only when their slot comes, each signed then', async () => {
    const server = await startHttpServer(() => ({ status: 200, body: {} }));
    try {
      const scheduler = new VirtualTimeScheduler();
      scheduler.frame = 1_700_000_000_000;
      const rest = restClient({
        baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', scheduler, serverTimeOffsetMs: () => 0, rateLimit: { requestsPerSecond: 2 },
      });
      const account = { method: 'GET', path: '/api/v1/account', security: 'USER_DATA' } as const;
      const all = Promise.all([1, 2, 3].map(() => firstValueFrom(rest.request(account))));
      await server.nextRequest();
      await server.nextRequest();
      expect(server.requests).toHaveLength(2);
      scheduler.maxFrames = scheduler.frame + 1000; // run the queue's timer, not the deadlines
      scheduler.flush();
      await all;
      expect(server.requests.map((r) => new URLSearchParams(r.rawQuery).get('timestamp'))).toEqual(['1700000000000', '1700000000000', '1700000001000']);
    } finally {
      await server.close();
    }
  });
});
