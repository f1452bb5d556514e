import { defer, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { restClock, SERVER_TIME_PATH } from '../../lib/rest/restClock';
import type { Answer, Transport } from '../../lib/rest/transport';
import type { RestRequest } from '../../lib/rest/types';

describe('restClock', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  /** A transport answering GET /api/v1/time with `answer(sentAt)` after `rttMs`, recording each call. */
  function timeServer(answer: (sentAt: number) => Partial<Answer> | Error, rttMs = 20) {
    const calls: string[] = [];
    const send: Transport = (request: RestRequest<unknown>, signed: boolean): Observable<Answer> =>
      defer(() => {
        calls.push(`${request.method} ${request.path} ${signed}`);
        const sentAt = testScheduler.now();
        const made = answer(sentAt);
        if (made instanceof Error) return throwError(() => made);
        return testScheduler.createColdObservable<Answer>(`${rttMs}ms (a|)`, {
          a: { status: 200, text: '', secrets: [], sentAt, receivedAt: sentAt + rttMs, ...made },
        });
      });
    return { send, calls };
  }

  it("learns the offset from the server's time at the middle of the round trip", () => {
    testScheduler.run(({ expectObservable }) => {
      // the server is 5 000 ms ahead: at local 10 (mid-trip) it says 5 010.
      const { send, calls } = timeServer((sentAt) => ({ text: `{"serverTime":"${sentAt + 10 + 5000}"}` }));
      const clock = restClock(send, testScheduler, 600_000);
      expect(clock.offsetMs()).toBe(0);
      expectObservable(clock.ready(false)).toBe('20ms |');
      testScheduler.flush();
      expect(clock.offsetMs()).toBe(5000);
      // the server read its clock somewhere in the 20 ms round trip: the offset is at most 5 010
      expect(clock.offsetErrorMs()).toBe(10);
      expect(calls).toEqual([`GET ${SERVER_TIME_PATH} false`]);
    });
  });

  it('asks again only after refreshMs, or when forced; concurrent waits share one call', () => {
    testScheduler.run(({ expectObservable }) => {
      const { send, calls } = timeServer((sentAt) => ({ text: `{"serverTime":${sentAt + 10}}` }));
      const clock = restClock(send, testScheduler, 1000);
      expectObservable(clock.ready(false)).toBe('20ms |');
      expectObservable(clock.ready(false)).toBe('20ms |');
      expectObservable(clock.ready(false), '500ms ^').toBe('500ms |'); // fresh: no call
      testScheduler.schedule(() => clock.ready(true).subscribe(), 600);
      testScheduler.schedule(() => clock.ready(false).subscribe(), 1700);
      testScheduler.flush();
      expect(calls).toHaveLength(3);
    });
  });

  it('a failed or unreadable answer costs one call per period and keeps the offset', () => {
    testScheduler.run(() => {
      let n = 0;
      const { send, calls } = timeServer(() => (n++ === 0 ? new Error('offline') : { status: 404, text: '{"code":-1}' }));
      const clock = restClock(send, testScheduler, 1000);
      clock.ready(false).subscribe({ error: () => calls.push('error') });
      testScheduler.schedule(() => clock.ready(false).subscribe(), 500);
      testScheduler.schedule(() => clock.ready(false).subscribe(), 1100);
      testScheduler.schedule(() => clock.ready(false).subscribe(), 1500);
      testScheduler.flush();
      expect(calls).toEqual([`GET ${SERVER_TIME_PATH} false`, `GET ${SERVER_TIME_PATH} false`]);
      expect(clock.offsetMs()).toBe(0);
    });
  });

  it('takes outside samples: any when stale, only a tighter round trip when fresh, never a bad one', () => {
    testScheduler.run(() => {
      const { send } = timeServer(() => ({ text: '{"serverTime":1}' }));
      const clock = restClock(send, testScheduler, 1000);
      expect(clock.offsetErrorMs()).toBe(0); // nothing learned
      clock.sample(300.4, 50);
      expect(clock.offsetMs()).toBe(300);
      expect(clock.offsetErrorMs()).toBe(25);
      clock.sample(900, 80);
      expect(clock.offsetMs()).toBe(300);
      clock.sample(250, 40);
      expect(clock.offsetMs()).toBe(250);
      for (const [offset, rtt] of [[Number.NaN, 1], [1, Infinity], [1, -1]] as const) clock.sample(offset, rtt);
      expect(clock.offsetMs()).toBe(250);
      testScheduler.schedule(() => clock.sample(700, 90), 1000);
      testScheduler.flush();
      expect(clock.offsetMs()).toBe(700);
    });
  });
});
