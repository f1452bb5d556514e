import * as t from 'io-ts';
import { ignoreElements, type Observable, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ConnectionClosedError, DecodeError } from '../../../lib/errors';
import { marketFeed } from '../../../lib/market/internal/marketFeed';
import type { RoutedTopic } from '../../../lib/market/internal/topicRouter';
import { type Connection, type ConnectionCore, connectionCore, type ConnectionConfig } from '../../../lib/socket/connection';
import { fakeWebSocket } from '../../../lib/testing/fakeWebSocket';
import { errorAwareTestScheduler } from '../../helpers/errorMarbles';

/** What a routed topic received: its records and the epoch handed with them. */
interface Delivery {
  readonly records: readonly unknown[];
  readonly epoch: number;
}

/** A routed `(symbol, trade)` topic whose records must be text (`t.string`), recording what reached it. */
function tradeTopic(symbol: string, deliveries: Delivery[], onDeliver: (records: readonly unknown[]) => void = () => undefined): RoutedTopic<string> {
  return {
    symbol,
    topic: 'trade',
    codec: t.string,
    check: undefined,
    deliver: (_envelope, records, epoch) => {
      onDeliver(records);
      deliveries.push({ records, epoch });
    },
  };
}

/** A trade message of `symbol` with these records. */
const trades = (symbol: string, ...data: unknown[]) => ({ symbol, topic: 'trade', data });

describe('marketFeed', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /**
   * A feed over a real connection core (on-demand exact integers, as `marketStreams` builds it) and fake sockets
   * opening 1 ms after construction; the hooks' calls are logged.
   */
  function setup(config: Partial<ConnectionConfig> = {}) {
    const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
    const core = connectionCore(
      {
        url: 'ws://127.0.0.1/quote/ws/v1',
        WebSocketCtor: fake.WebSocketCtor,
        scheduler: testScheduler,
        pingIntervalMs: 1000,
        heartbeatTimeoutMs: 10_000,
        reconnect: { minDelayMs: 10, random: () => 0.5 },
        ...config,
      },
      { exactIntegers: 'on-demand' },
    );
    const frameTimes: number[] = [];
    const reported: DecodeError[] = [];
    const feed = marketFeed(core, { onFrame: (now) => frameTimes.push(now), onDecodeError: (e) => reported.push(e) });
    return { fake, core, feed, frameTimes, reported };
  }

  describe('over a connection core', () => {
    it('hands every frame to the router (pongs too, for onFrame) with its arrival time, and the router delivers', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, feed, frameTimes, reported } = setup();
        const deliveries: Delivery[] = [];
        feed.router.add(tradeTopic('BTCUSDT', deliveries));
        fake.at(3, (s) => s.receive(trades('BTCUSDT', 'a', 'b')));
        fake.at(5, (s) => s.receive({ pong: 1 }));
        fake.at(7, (s) => s.receive(trades('ETHUSDT', 'nobody asked'))); // routed nowhere, not an error
        fake.at(8, (s) => s.receive(trades('BTCUSDT', 'c')));
        expectObservable(feed.feed$, '10ms !').toBe('');
        testScheduler.flush();
        expect(frameTimes).toEqual([3, 5, 7, 8]);
        expect(deliveries).toEqual([
          { records: ['a', 'b'], epoch: 1 },
          { records: ['c'], epoch: 1 },
        ]);
        expect(reported).toEqual([]);
      });
    });

    it('keeps the shared socket open while subscribed and closes it with the last subscriber', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, feed } = setup();
        expectObservable(feed.feed$, '6ms !').toBe('');
        expectObservable(feed.feed$, '3ms ^ 6ms !').toBe('');
        expectSubscriptions(fake.logs).toBe('^ 9ms !');
        testScheduler.flush();
        expect(fake.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
      });
    });

    it("tracks the connection's epoch: records after a reconnect carry the new one", () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, feed } = setup();
        const deliveries: Delivery[] = [];
        feed.router.add(tradeTopic('BTCUSDT', deliveries));
        fake.at(3, (s) => s.receive(trades('BTCUSDT', 'a')));
        fake.at(4, (s) => s.closeFromServer({ code: 1006 })); // retry after 5 ms, open 1 ms later: epoch 2 at 10
        fake.at(12, (s) => s.receive(trades('BTCUSDT', 'b')));
        expectObservable(feed.feed$, '15ms !').toBe('');
        testScheduler.flush();
        expect(feed.router.epoch).toBe(2);
        expect(deliveries).toEqual([
          { records: ['a'], epoch: 1 },
          { records: ['b'], epoch: 2 },
        ]);
      });
    });

    it('reports the decode errors of one frame as ONE, counting the others; each frame on its own', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, feed, reported } = setup();
        const deliveries: Delivery[] = [];
        feed.router.add(tradeTopic('BTCUSDT', deliveries));
        // a batch: two messages each with a bad record; the good records still arrive
        fake.at(3, (s) => s.receive([trades('BTCUSDT', 'a', 1), trades('BTCUSDT', 2, 'b'), { nope: 1 }]));
        fake.at(4, (s) => s.receive(trades('BTCUSDT', 3)));
        fake.at(5, (s) => s.receive(trades('BTCUSDT', 'c')));
        expectObservable(feed.feed$, '10ms !').toBe('');
        testScheduler.flush();
        expect(deliveries.map((d) => d.records)).toEqual([['a'], ['b'], [], ['c']]);
        expect(reported.map((e) => e.message)).toEqual([
          '1 of 2 string records failed to decode (paths: the first) (and 2 more decode errors in the same frame)',
          '1 of 1 string records failed to decode (paths: the first)',
        ]);
        expect(reported.every((e) => e instanceof DecodeError && e.kind === 'codec')).toBe(true);
        // the paths of the first issue of each frame
        expect(reported.map((e) => e.paths)).toEqual([['Invalid value 1 supplied to : string'], ['Invalid value 3 supplied to : string']]);
      });
    });

    it('reports an issue of the router outside a frame at once', () => {
      const { feed, reported } = setup();
      feed.router.dispatch({ unknown: true });
      expect(reported.map((e) => e.message)).toEqual(['unrecognised public stream message']);
    });

    it('starts the next frame clean after a frame whose handling threw (reported by the socket session)', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, core, feed, reported } = setup();
        const deliveries: Delivery[] = [];
        feed.router.add(
          tradeTopic('BTCUSDT', deliveries, (records) => {
            if (records.includes('boom')) throw new Error('subscriber failed');
          }),
        );
        const failures: string[] = [];
        core.connection.errors$.subscribe((e) => failures.push(e.message));
        fake.at(3, (s) => s.receive([trades('BTCUSDT', 1), trades('BTCUSDT', 'boom')]));
        fake.at(4, (s) => s.receive(trades('BTCUSDT', 2)));
        fake.at(5, (s) => s.receive(trades('BTCUSDT', 'a')));
        expectObservable(feed.feed$, '10ms !').toBe('');
        testScheduler.flush();
        expect(failures).toEqual(['frame handling failed: Error: subscriber failed']);
        // the frame that threw reported nothing of its own; the next one is reported as itself, not counted with it
        expect(reported.map((e) => e.message)).toEqual(['1 of 1 string records failed to decode (paths: the first)']);
        expect(deliveries.map((d) => d.records)).toEqual([[], [], ['a']]); // the throwing delivery recorded nothing
      });
    });

    it('errors when the connection gives up', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, feed } = setup({ reconnect: false });
        fake.at(4, (s) => s.closeFromServer({ code: 4001, reason: 'bye' }));
        expectObservable(feed.feed$).toBe('4ms #', undefined, new ConnectionClosedError(4001, 'bye', true));
      });
    });
  });

  describe('its two sources (opened$ and the frames), as marbles', () => {
    /** A core whose frames are `frames$`'s values, each handed to the sink at its time, and whose epochs are `opened$`. */
    function coreOf(opened$: Observable<number>, frames$: Observable<unknown>): ConnectionCore {
      return {
        connection: { opened$ } as unknown as Connection,
        frames: (sink) => frames$.pipe(tap((message) => sink(message, testScheduler.now())), ignoreElements()),
      };
    }

    it('hands the epoch of opened$ to the router before the frames that follow', () => {
      testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const opened = cold('a---b', { a: 1, b: 2 });
        const frames = cold('--x---y', { x: trades('BTCUSDT', 'x'), y: trades('BTCUSDT', 'y') });
        const frameTimes: number[] = [];
        const feed = marketFeed(coreOf(opened, frames), { onFrame: (now) => frameTimes.push(now), onDecodeError: () => undefined });
        const deliveries: Delivery[] = [];
        feed.router.add(tradeTopic('BTCUSDT', deliveries));
        expectObservable(feed.feed$, '^ 8ms !').toBe('');
        expectSubscriptions(opened.subscriptions).toBe('^ 8ms !');
        expectSubscriptions(frames.subscriptions).toBe('^ 8ms !');
        testScheduler.flush();
        expect(frameTimes).toEqual([2, 6]);
        expect(deliveries).toEqual([
          { records: ['x'], epoch: 1 },
          { records: ['y'], epoch: 2 },
        ]);
      });
    });

    it('completes only once both complete (the frames first)', () => {
      testScheduler.run(({ cold, expectObservable }) => {
        const hooks = { onFrame: () => undefined, onDecodeError: () => undefined };
        expectObservable(marketFeed(coreOf(cold('a-----|', { a: 1 }), cold('--|')), hooks).feed$).toBe('------|');
      });
    });

    // Known bug (reported): the frames' subscription is added to opened$'s own subscriber, so when opened$
    // completes first it tears the frames down with it and feed$ neither completes nor errors. Unreachable
    // through `connectionCore` today (its opened$ never completes). When marketFeed is fixed this test fails:
    // turn `it.failing` into `it`.
    it('completes only once both complete (opened$ first), keeping the frames subscribed until then', () => {
      testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const hooks = { onFrame: () => undefined, onDecodeError: () => undefined };
        const frames = cold('----|');
        expectObservable(marketFeed(coreOf(cold('a|', { a: 1 }), frames), hooks).feed$).toBe('----|');
        expectSubscriptions(frames.subscriptions).toBe('^---!');
      });
    });

    it('errors with the error of either, and unsubscribes the other', () => {
      testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const hooks = { onFrame: () => undefined, onDecodeError: () => undefined };
        const lost = new ConnectionClosedError(1011, 'gone', true);
        const frames = cold('---#', undefined, lost);
        const opened = cold('a', { a: 1 });
        expectObservable(marketFeed(coreOf(opened, frames), hooks).feed$).toBe('---#', undefined, lost);
        expectSubscriptions(opened.subscriptions).toBe('^--!');
        const failing = cold<number>('--#', undefined, new Error('status failed'));
        const quiet = cold('-');
        expectObservable(marketFeed(coreOf(failing, quiet), hooks).feed$).toBe('--#', undefined, new Error('status failed'));
        expectSubscriptions(quiet.subscriptions).toBe('^-!');
      });
    });
  });
});
