import { TestScheduler } from 'rxjs/testing';
import { marketStreams } from '../../../lib/market/marketStreams';
import { depthEnvelope, depthRecord } from '../../../lib/testing/publicMessages';
import { testExchange, type TestExchangeConfig } from '../../../lib/testing/testExchange';
import { userStream } from '../../../lib/user/userStream';
import { RunLimit } from '../../../lib/testing/internal/runLimit';
import type { SchedulerLike } from 'rxjs';

/**
 * A stream that never completes, observed without an unsubscription marble, used to spin the TestScheduler
 * for ever (the client pings every 10 s). The test exchange stops such a run `maxFrames` past the last
 * scripted event with an error that names the cause.
 */
describe('testExchange run limit (maxFrames)', () => {
  const SAFETY_NET_MS = 12 * 3_600_000;
  const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

  /**
   * Without the limit these runs never end. The safety net throws at 12 virtual hours so that, without the
   * limit, a test fails (on the message) instead of hanging; it is scheduled from a frame-0 action, after the
   * exchange has read the queue, so it does not count as a scripted event.
   */
  const withSafetyNet = (testScheduler: TestScheduler): void => {
    testScheduler.schedule(() =>
      testScheduler.schedule(() => {
        throw new Error('safety net: the run was not stopped');
      }, SAFETY_NET_MS),
    );
  };

  const forgotten = (config: Omit<TestExchangeConfig, 'scheduler'>, script?: (exchange: ReturnType<typeof testExchange>) => void) => {
    const testScheduler = newScheduler();
    const started = Date.now();
    let stoppedAt = -1;
    const run = () =>
      testScheduler.run(({ expectObservable }) => {
        const exchange = testExchange({ scheduler: testScheduler, ...config });
        withSafetyNet(testScheduler);
        script?.(exchange);
        expectObservable(marketStreams(exchange.marketConfig()).depth('BTCUSDT')).toBe('');
      });
    let error: unknown;
    try {
      run();
    } catch (e) {
      error = e;
      stoppedAt = testScheduler.now();
    }
    return { error: error as Error, stoppedAt, realMs: Date.now() - started };
  };

  it('stops a run that passes maxFrames after the last scripted event, with an error naming the likely cause', () => {
    const { error, stoppedAt } = forgotten({ maxFrames: 60_000 });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TestRunLimitError');
    expect(error.message).toContain('a stream that never completes');
    expect(error.message).toContain("expectObservable(stream$, '^ 1s !')");
    expect(error.message).toContain('maxFrames');
    expect(error.message).toContain('public: 1 live socket(s), 1 connection(s)');
    // The first client activity after 60 s: the ping at 70 s.
    expect(stoppedAt).toBe(70_000);
  });

  it('stops by default ten virtual minutes past the last scripted event, in a few ms of real time', () => {
    const { error, stoppedAt, realMs } = forgotten({});
    expect(error.name).toBe('TestRunLimitError');
    expect(stoppedAt).toBeGreaterThan(600_000);
    expect(stoppedAt).toBeLessThanOrEqual(610_000);
    expect(realMs).toBeLessThan(5000);
  });

  it('counts from the last scripted event: hot scripts, fault times and refuse until', () => {
    expect(forgotten({ maxFrames: 60_000 }, (x) => x.server.public('- 5m a', { a: depthEnvelope() })).stoppedAt).toBe(370_000);
    expect(forgotten({ maxFrames: 60_000 }, (x) => x.drop({ stream: 'public', at: 600_000 })).stoppedAt).toBeGreaterThan(660_000);
    expect(forgotten({ maxFrames: 60_000 }, (x) => x.refuse({ stream: 'public', until: 900_000 })).stoppedAt).toBeGreaterThan(960_000);
  });

  it('lets a long run end normally when its unsubscription marble is far away', () => {
    const testScheduler = newScheduler();
    let exchange: ReturnType<typeof testExchange> | undefined;
    testScheduler.run(({ expectObservable }) => {
      exchange = testExchange({ scheduler: testScheduler, maxFrames: 1000 });
      const market = marketStreams(exchange.marketConfig());
      const book = depthRecord({ t: 7 });
      exchange.server.public('-a', { a: depthEnvelope(book) });
      expectObservable(market.depth('BTCUSDT'), '^ 20m !').toBe('-a', { a: book });
      // The private side too: listen-key keepalives every 30 min for 70 min.
      const user = userStream(exchange.userConfig());
      expectObservable(user.events$, '^ 70m !').toBe('');
    });
    expect(exchange?.listenKeys.calls.filter((c) => c.call === 'extend').length).toBeGreaterThanOrEqual(2);
  });

  it('is off with maxFrames: Infinity (the safety net fires instead)', () => {
    const { error } = forgotten({ maxFrames: Infinity });
    expect(error.message).toContain('safety net');
  });

  it('rejects a negative or NaN maxFrames', () => {
    const testScheduler = newScheduler();
    expect(() => testExchange({ scheduler: testScheduler, maxFrames: -1 })).toThrow(RangeError);
    expect(() => testExchange({ scheduler: testScheduler, maxFrames: Number.NaN })).toThrow(/maxFrames/);
  });
});

describe('RunLimit', () => {
  /** A virtual scheduler flushed by hand, without TestScheduler's 750-frame cut outside run(). */
  const newScheduler = (): TestScheduler => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.maxFrames = Number.POSITIVE_INFINITY;
    return scheduler;
  };

  it('rejects a negative or NaN maxFrames', () => {
    expect(() => new RunLimit(newScheduler(), -1, () => '')).toThrow('testExchange: maxFrames must be a number >= 0 (or Infinity), got -1');
    expect(() => new RunLimit(newScheduler(), Number.NaN, () => '')).toThrow(RangeError);
  });

  it('counts from the last action queued when the run flushes, and stops once past it by more than maxFrames', () => {
    const testScheduler = newScheduler();
    const checked: number[] = [];
    const limit = new RunLimit(testScheduler, 1000, () => 'public: 1 live socket(s)');
    const check = (): void => {
      checked.push(testScheduler.now());
      limit.check();
    };
    // The last scripted event at 3 s; checks from inside it are not in the queue when the limit reads it.
    testScheduler.schedule(() => {
      check();
      testScheduler.schedule(check, 1000);
      testScheduler.schedule(check, 1001);
    }, 3000);
    expect(() => testScheduler.flush()).toThrow(
      'testExchange: the run is at 4001ms of virtual time, more than 1s (maxFrames) past the last scripted event (3s), ' +
        'and clients are still active (public: 1 live socket(s)).',
    );
    expect(checked).toEqual([3000, 4000, 4001]);
  });

  it('moves its horizon with extend, ignoring undefined and infinite times', () => {
    const testScheduler = newScheduler();
    const limit = new RunLimit(testScheduler, 3_600_000, () => 'x');
    limit.extend(3_600_000);
    limit.extend(undefined);
    limit.extend(Number.POSITIVE_INFINITY);
    const checked: number[] = [];
    const check = (): void => {
      checked.push(testScheduler.now());
      limit.check();
    };
    testScheduler.schedule(() => {
      testScheduler.schedule(check, 7_200_000 - 1);
      testScheduler.schedule(check, 7_200_001 - 1);
    }, 1);
    expect(() => testScheduler.flush()).toThrow(/at 7200001ms of virtual time, more than 1h \(maxFrames\) past the last scripted event \(1h\)/);
    expect(checked).toEqual([7_200_000, 7_200_001]);
  });

  it('does nothing on a scheduler that is not virtual, or with maxFrames Infinity', () => {
    const scheduled: number[] = [];
    const realTime: SchedulerLike = {
      now: () => 1e12,
      schedule: (_work: unknown, delay = 0) => {
        scheduled.push(delay);
        return { unsubscribe: () => undefined, closed: false } as ReturnType<SchedulerLike['schedule']>;
      },
    };
    new RunLimit(realTime, 0, () => 'x').check();
    expect(scheduled).toEqual([]);

    const testScheduler = newScheduler();
    const off = new RunLimit(testScheduler, Number.POSITIVE_INFINITY, () => 'x');
    testScheduler.schedule(() => off.check(), 1e9);
    expect(() => testScheduler.flush()).not.toThrow();
  });
});
