import { of, Subject, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { RateLimitedError, RequestRejectedError } from '../../../lib/errors';
import type { ListenKeyApi } from '../../../lib/user/listenKey';
import { rateLimitWaitMs, sharedListenKey } from '../../../lib/user/internal/sharedListenKey';
import { watchActionChains } from '../../helpers/actionChains';

describe('rateLimitWaitMs', () => {
  it('is the Retry-After of a rate limit, the long wait for a bare 429 / 418, else 0', () => {
    expect(rateLimitWaitMs(new RateLimitedError(429, 7000), 60_000)).toBe(7000);
    expect(rateLimitWaitMs(new RequestRejectedError(429), 60_000)).toBe(60_000);
    expect(rateLimitWaitMs(new RequestRejectedError(418), 5)).toBe(5);
    expect(rateLimitWaitMs(new RequestRejectedError(500), 60_000)).toBe(0);
    expect(rateLimitWaitMs(new Error('x'), 60_000)).toBe(0);
  });
});

describe('sharedListenKey', () => {
  it('shares one key between the subscriptions on one api, recreates on demand, closes after the last', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(({ cold, expectObservable }) => {
      const calls: string[] = [];
      let n = 0;
      const api: ListenKeyApi = {
        createListenKey: () => (calls.push('POST'), cold('-a|', { a: `key-${++n}` })),
        extendListenKey: (k) => (calls.push(`PUT ${k}`), cold('-|')),
        closeListenKey: (k) => (calls.push(`DELETE ${k}`), cold('-|')),
      };
      const recreate$ = new Subject<void>();
      const config = { scheduler: testScheduler, keepAliveIntervalMs: 10, retryDelayMs: 1 };
      expectObservable(sharedListenKey(api, { ...config, recreate$ }), '^ 14ms !').toBe('-a 2ms b', { a: 'key-1', b: 'key-2' });
      expectObservable(sharedListenKey(api, config), '^ 19ms !').toBe('-a 2ms b', { a: 'key-1', b: 'key-2' });
      testScheduler.schedule(() => recreate$.next(), 3);
      testScheduler.flush();
      expect(calls.filter((c) => c === 'POST')).toHaveLength(2);
      expect(calls).toContain('DELETE key-2');
    });
  });
  it('keeps the key alive for any length of time with one timer action (no chain in virtual time)', () => {
    const chains = watchActionChains();
    try {
      const scheduler = new VirtualTimeScheduler(undefined, Infinity);
      let extends_ = 0;
      const api: ListenKeyApi = {
        createListenKey: () => of('key-1'),
        extendListenKey: () => (extends_++, of(undefined)),
        closeListenKey: () => of(undefined),
      };
      // a keep-alive a minute for a week: 10 080
      const subscription = sharedListenKey(api, { scheduler, keepAliveIntervalMs: 60_000 }).subscribe();
      scheduler.schedule(() => subscription.unsubscribe(), 7 * 86_400_000 + 1);
      scheduler.flush();
      expect(extends_).toBe(10_080);
      // on main: `interval` chained one action per keep-alive
      expect(chains.longest()).toBeLessThanOrEqual(2);
    } finally {
      chains.restore();
    }
  });
});
