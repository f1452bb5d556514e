import { defer, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { onServerClock, TIMESTAMP_REJECTED_CODE } from '../../lib/rest/signedTransport';
import type { RestClock } from '../../lib/rest/restClock';
import type { Answer, Transport } from '../../lib/rest/transport';
import type { RestClientConfig, RestRequest } from '../../lib/rest/types';
import { ConfigError } from '../../lib/errors';

const config: RestClientConfig = { baseUrl: 'http://127.0.0.1:1', apiKey: 'key', secretKey: 'secret' };
const request: RestRequest<unknown> = { method: 'GET', path: '/api/v1/account', security: 'USER_DATA' };

const answer = (status: number, text: string): Answer => ({ status, text, secrets: [], sentAt: 0, receivedAt: 0 });
const ok = answer(200, '{"ok":true}');
const tooLate = answer(400, `{"code":${TIMESTAMP_REJECTED_CODE},"msg":"Timestamp outside recvWindow"}`);
const tooLateAsText = answer(400, `{"code":"${TIMESTAMP_REJECTED_CODE}","msg":"Timestamp outside recvWindow"}`);

describe('onServerClock', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  /** A transport answering each call with the next of `answers` after 10 ms, and a clock taking 5 ms to get ready; both log. */
  function fixture(answers: Answer[], known = false) {
    const log: string[] = [];
    const send: Transport = (r, signed): Observable<Answer> =>
      defer(() => {
        log.push(`send ${r.path} signed=${signed} at ${testScheduler.now()}`);
        return testScheduler.createColdObservable<Answer>('10ms (a|)', { a: answers.shift()! });
      });
    const clock: RestClock = {
      offsetMs: () => 0,
      offsetErrorMs: () => 0,
      sample: () => undefined,
      known: () => known,
      ready: (force) =>
        defer(() => {
          log.push(`ready force=${force} at ${testScheduler.now()}`);
          return testScheduler.createColdObservable<never>('5ms |');
        }),
    };
    return { send, clock, log };
  }

  it('sends an unsigned call straight away, without asking the clock', () => {
    testScheduler.run(({ expectObservable }) => {
      const { send, clock, log } = fixture([ok]);
      expectObservable(onServerClock(config, true, send, clock)(request, false)).toBe('10ms (a|)', { a: ok });
      testScheduler.flush();
      expect(log).toEqual(['send /api/v1/account signed=false at 0']);
    });
  });

  it('makes the clock ready, then sends a signed call once', () => {
    testScheduler.run(({ expectObservable }) => {
      const { send, clock, log } = fixture([ok]);
      expectObservable(onServerClock(config, true, send, clock)(request, true)).toBe('15ms (a|)', { a: ok });
      testScheduler.flush();
      expect(log).toEqual(['ready force=false at 0', 'send /api/v1/account signed=true at 5']);
    });
  });

  it('with an estimate already known, sends a signed call at once and makes the clock ready just after it', () => {
    testScheduler.run(({ expectObservable }) => {
      const { send, clock, log } = fixture([ok], true);
      expectObservable(onServerClock(config, true, send, clock)(request, true)).toBe('10ms (a|)', { a: ok });
      testScheduler.flush();
      expect(log).toEqual(['send /api/v1/account signed=true at 0', 'ready force=false at 0']);
    });
  });

  it.each([
    ['a numeric', tooLate],
    ['a text', tooLateAsText],
  ])('on %s -1021 answer refreshes the clock by force and sends the call once more', (_, rejected) => {
    testScheduler.run(({ expectObservable }) => {
      const { send, clock, log } = fixture([rejected, ok]);
      expectObservable(onServerClock(config, true, send, clock)(request, true)).toBe('30ms (a|)', { a: ok });
      testScheduler.flush();
      expect(log).toEqual([
        'ready force=false at 0',
        'send /api/v1/account signed=true at 5',
        'ready force=true at 15',
        'send /api/v1/account signed=true at 20',
      ]);
    });
  });

  it('passes a second -1021 answer on instead of retrying again', () => {
    testScheduler.run(({ expectObservable }) => {
      const { send, clock } = fixture([tooLate, tooLate]);
      expectObservable(onServerClock(config, true, send, clock)(request, true)).toBe('30ms (a|)', { a: tooLate });
    });
  });

  it('passes other rejections and a 2xx carrying code -1021 on as they are', () => {
    testScheduler.run(({ expectObservable }) => {
      const other = answer(400, '{"code":-1100,"msg":"bad"}');
      const odd = answer(200, `{"code":${TIMESTAMP_REJECTED_CODE}}`);
      const { send, clock, log } = fixture([other, odd]);
      const signed = onServerClock(config, true, send, clock);
      expectObservable(signed(request, true)).toBe('15ms (a|)', { a: other });
      expectObservable(signed(request, true)).toBe('15ms (a|)', { a: odd });
      testScheduler.flush();
      expect(log.filter((l) => l.startsWith('ready force=true'))).toEqual([]);
    });
  });

  it('fails a signed call that cannot be signed before asking the clock or sending', () => {
    testScheduler.run(({ expectObservable }) => {
      const { send, clock, log } = fixture([ok]);
      expectObservable(onServerClock(config, false, send, clock)(request, true)).toBe(
        '#',
        undefined,
        new ConfigError('secretKey', 'is required for signed requests (TRADE, USER_DATA, listen keys); or pass sign'),
      );
      testScheduler.flush();
      expect(log).toEqual([]);
    });
  });

  it('is cold: nothing happens before subscription', () => {
    const { send, clock, log } = fixture([ok]);
    onServerClock(config, true, send, clock)(request, true);
    expect(log).toEqual([]);
  });
});
