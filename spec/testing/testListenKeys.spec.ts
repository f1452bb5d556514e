import { TestScheduler } from 'rxjs/testing';
import { RequestFailedError, RequestRejectedError } from '../../lib/errors';
import { testListenKeys } from '../../lib/testing/testListenKeys';
import { listenKey } from '../../lib/user/listenKey';

describe('testListenKeys', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('returns the active key until it expires, then a new one; records every call', () => {
    testScheduler.run(({ cold, expectObservable, flush }) => {
      const invalidated: string[] = [];
      const rest = testListenKeys({ scheduler: testScheduler, onInvalidated: (key, reason) => invalidated.push(`${key}: ${reason}`) });
      rest.expire({ at: 5 });
      const recreate$ = cold('--------r');
      expectObservable(listenKey(rest, { recreate$, scheduler: testScheduler }), '^ 9ms !').toBe('k-------l', {
        k: 'test-listen-key-1',
        l: 'test-listen-key-2',
      });
      flush();
      expect(rest.calls.map((c) => `${c.time} ${c.call} ${c.key} ${c.outcome}`)).toEqual([
        '0 create test-listen-key-1 ok',
        '8 create test-listen-key-2 ok',
        '10 close test-listen-key-2 ok',
      ]);
      expect(invalidated).toEqual(['test-listen-key-1: listen key expired', 'test-listen-key-2: listen key deleted']);
      expect([rest.active(), rest.issued('test-listen-key-1'), rest.isValid('test-listen-key-1')]).toEqual([undefined, true, false]);
    });
  });

  it('rejects the extension of an invalid key with RequestRejectedError (-1125)', () => {
    testScheduler.run(({ expectObservable }) => {
      const rest = testListenKeys({ scheduler: testScheduler });
      expectObservable(rest.extendListenKey('nope')).toBe('#', undefined, new RequestRejectedError(400, -1125, 'This listenKey does not exist.'));
    });
  });

  it('failNext scripts failures: a network failure by default, or the given error', () => {
    testScheduler.run(({ expectObservable }) => {
      const rest = testListenKeys({ scheduler: testScheduler });
      rest.failNext('create', { count: 2 });
      rest.failNext('extend', { error: new RequestRejectedError(500) });
      const failure = new RequestFailedError('POST', '/api/v1/userDataStream', 'simulated network failure');
      expectObservable(rest.createListenKey()).toBe('#', undefined, failure);
      expectObservable(rest.createListenKey()).toBe('#', undefined, failure);
      expectObservable(rest.createListenKey()).toBe('(k|)', { k: 'test-listen-key-1' });
      expectObservable(rest.extendListenKey('test-listen-key-1')).toBe('#', undefined, new RequestRejectedError(500));
      expectObservable(rest.extendListenKey('test-listen-key-1')).toBe('|');
    });
  });

  it('listenKey retries a failed creation after its jittered retryDelayMs (random 1: the whole delay)', () => {
    testScheduler.run(({ expectObservable }) => {
      const rest = testListenKeys({ scheduler: testScheduler });
      rest.failNext('create');
      expectObservable(listenKey(rest, { scheduler: testScheduler, random: () => 1 }), '^ 2s !').toBe('1s k', { k: 'test-listen-key-1' });
    });
  });
});
