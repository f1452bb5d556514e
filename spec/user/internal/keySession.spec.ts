import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { ConfigError, ConnectionClosedError } from '../../../lib/errors';
import type { PrivateEvent } from '../../../lib/codecs/privateEvents';
import type { SessionItem } from '../../../lib/user/internal/items';
import { type FrameClock, keySession, keySuspicion, retryUnlessKeyDead } from '../../../lib/user/internal/keySession';
import { fakeWebSocket } from '../../../lib/testing/fakeWebSocket';
import { report } from '../fixtures';

describe('retryUnlessKeyDead', () => {
  it('retries every loss except a close 4001 and a ConfigError', () => {
    expect(retryUnlessKeyDead(new ConnectionClosedError(1006, '', false))).toBe(true);
    expect(retryUnlessKeyDead(new ConnectionClosedError(4002, 'other', true))).toBe(true);
    expect(retryUnlessKeyDead(new ConnectionClosedError(4001, 'key', true))).toBe(false);
    expect(retryUnlessKeyDead(new ConfigError('url', 'bad'))).toBe(false);
  });
});

describe('keySuspicion', () => {
  const lost = (code: number) => ({ type: 'reconnecting' as const, epoch: 1, attempt: 1, delayMs: 1, cause: new ConnectionClosedError(code, '', false) });

  it('calls dead at once for a close 4001, and after `threshold` failures in a row otherwise', () => {
    const calls: boolean[] = [];
    const watch = keySuspicion(2, (dead) => calls.push(dead));
    watch(lost(4001));
    watch(lost(1006));
    watch({ type: 'open', epoch: 1, since: 0 }); // an open restarts the count
    watch(lost(1006));
    watch(lost(1006));
    watch({ type: 'closed', epoch: 1 }); // closed on purpose: not a failure
    expect(calls).toEqual([true, false]);
  });
});

describe('keySession', () => {
  it('hands decoded events to its sink in frame order, statuses and decode errors as items, and writes the frame clock', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(({ expectObservable }) => {
      const ws = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
      const events: [string, number][] = [];
      const frameClock: FrameClock = { lastFrameAt: undefined };
      const session$ = keySession({
        url: 'ws://test/key',
        connection: { url: '', scheduler: testScheduler, WebSocketCtor: ws.WebSocketCtor },
        suspectAfterFailures: 3,
        onKeySuspect: () => undefined,
        onEvent: (e: PrivateEvent, now) => events.push([e.e === 'executionReport' ? e.i : e.e, now]),
        frameClock,
      });
      ws.at(3, (s) => s.receive(JSON.stringify([report({ i: '1' }), { e: 'executionReport' }, report({ i: '2' })])));
      const kinds = (i: SessionItem): string => (i.type === 'status' ? i.status.type : i.type === 'error' ? i.error.name : i.type);
      expectObservable(session$.pipe(map(kinds)), '^ 5ms !').toBe('ab 1ms c', { a: 'connecting', b: 'open', c: 'DecodeError' });
      testScheduler.flush();
      expect(events).toEqual([
        ['1', 3],
        ['2', 3],
      ]);
      expect(frameClock.lastFrameAt).toBe(3);
    });
  });
});
