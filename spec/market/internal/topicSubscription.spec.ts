import * as t from 'io-ts';
import { defer, filter, ignoreElements, type Observable, share, startWith, Subject, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { SubscriptionRequest } from '../../../lib/codecs/requests';
import { ConnectionClosedError, SubscriptionRejectedError } from '../../../lib/errors';
import { marketFeed } from '../../../lib/market/internal/marketFeed';
import { pacer } from '../../../lib/market/internal/pacer';
import { type TopicContext, type TopicRequest, topicSubscription } from '../../../lib/market/internal/topicSubscription';
import type { MarketMessage } from '../../../lib/market/marketMessage';
import type { Connection, ConnectionCore } from '../../../lib/socket/connection';
import { errorAwareTestScheduler } from '../../helpers/errorMarbles';

const SYMBOL = 'BTCUSDT';

/** A data message of the trade topic (records are kept as they are: the topic's codec is `t.unknown`). */
const trades = (data: unknown[], extra: Record<string, unknown> = {}) => ({ symbol: SYMBOL, topic: 'trade', data, ...extra });

/** The request of the `BTCUSDT` trade topic; records are anything, their `t` is their time. */
function tradeRequest(overrides: Partial<TopicRequest<unknown>> = {}): TopicRequest<unknown> {
  return { symbol: SYMBOL, topic: 'trade', binary: () => false, codec: t.unknown, staleAfterMs: Infinity, recordTime: true, ...overrides };
}

/** The message a topic emits. */
const emitted = (data: unknown[], epoch: number, extra: { first?: boolean; sendTime?: number } = {}): MarketMessage<unknown> => ({
  symbol: SYMBOL,
  topic: 'trade',
  first: extra.first ?? false,
  ...(extra.sendTime !== undefined && { sendTime: extra.sendTime }),
  epoch,
  data,
});

describe('topicSubscription', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /**
   * A TopicContext built by hand around a minimal fake connection driven by two marble observables:
   * - `link`: the socket's state, an epoch when one opens, 0 when it is lost (`opened$` replays the current
   *   epoch while open, `sendIfOpen` sends only then);
   * - `inbound`: the frames the service sends, handed to the real `marketFeed` (so the real `TopicRouter`
   *   routes them and tracks the epoch).
   * Every frame sent goes to `sent$` as `event id` (with ` (dropped)` when no socket was open, ` binary` for zip).
   */
  function setup(link: Observable<number>, inbound: Observable<unknown>, overrides: Partial<TopicContext> = {}) {
    let current = 0;
    link.subscribe((epoch) => (current = epoch));
    const sent$ = new Subject<string>();
    const conn = {
      opened$: defer(() => {
        const opens = link.pipe(filter((epoch) => epoch > 0));
        return current > 0 ? opens.pipe(startWith(current)) : opens;
      }),
      sendIfOpen: (frame: unknown) => {
        const { event, id, params } = frame as SubscriptionRequest;
        sent$.next(`${event} ${id}${params.binary ? ' binary' : ''}${current > 0 ? '' : ' (dropped)'}`);
        return current > 0;
      },
    } as unknown as Connection;
    const core: ConnectionCore = {
      connection: conn,
      frames: (sink) => inbound.pipe(tap((message) => sink(message, testScheduler.now())), ignoreElements()),
    };
    let frameAt = 0;
    const { router, feed$ } = marketFeed(core, { onFrame: (now) => (frameAt = now), onDecodeError: () => undefined });
    const log: string[] = [];
    const sizes: number[] = [];
    let lastId = 0;
    const ctx: TopicContext = {
      conn,
      router,
      feed$: feed$.pipe(share()),
      pacer: pacer(10, 10, testScheduler),
      scheduler: testScheduler,
      subscribeTimeoutMs: Infinity,
      random: () => 0.5,
      nextId: () => ++lastId,
      frameAt: () => frameAt,
      onDelivered: (sentAt) => log.push(`delivered ${sentAt}@${testScheduler.now()}`),
      onResubscribed: () => log.push(`resubscribed@${testScheduler.now()}`),
      onStale: () => log.push(`stale@${testScheduler.now()}`),
      onRejected: () => log.push(`rejected@${testScheduler.now()}`),
      onTopicsChanged: () => sizes.push(router.size),
      ...overrides,
    };
    return { ctx, sent$, log, sizes, router };
  }

  describe('subscribing', () => {
    it('sends sub with a fresh id when the socket opens, holds the feed while subscribed and emits what the router delivers', () => {
      testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
        const link = hot('-a', { a: 1 });
        const inbound = hot('---x-y-z', {
          x: trades([{ t: 100 }], { f: true, sendTime: 1000 }),
          y: trades([{ t: 200 }, { t: 300 }]),
          z: { pong: 5 },
        });
        const { ctx, sent$, log, sizes } = setup(link, inbound);
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$).toBe('-a------b', { a: 'sub 1', b: 'cancel 2' });
        expectObservable(topic$, '^-------!').toBe('---x-y', {
          x: emitted([{ t: 100 }], 1, { first: true, sendTime: 1000 }),
          y: emitted([{ t: 200 }, { t: 300 }], 1),
        });
        expectSubscriptions(inbound.subscriptions).toBe('^-------!');
        testScheduler.flush();
        // the age of a message: its sendTime, else its last record's time (recordTime)
        expect(log).toEqual(['delivered 1000@3', 'delivered 300@5']);
        expect(sizes).toEqual([1, 0]);
      });
    });

    it('is shared: one sub for every subscriber, cancel only when the last one leaves', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const link = hot('a', { a: 1 });
        const { ctx, sent$, sizes } = setup(link, hot('-'));
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$).toBe('--a---b', { a: 'sub 1', b: 'cancel 2' });
        expectObservable(topic$, '--^-!').toBe('');
        expectObservable(topic$, '---^--!').toBe('');
        testScheduler.flush();
        expect(sizes).toEqual([1, 0]);
      });
    });

    it('asks for binary frames when the request says so when it starts', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, sent$ } = setup(hot('a', { a: 1 }), hot('-'));
        let binary = true;
        const topic$ = topicSubscription(ctx, tradeRequest({ binary: () => binary }));
        testScheduler.schedule(() => (binary = false), 3); // read once, at the start: the re-sent sub keeps it
        expectObservable(sent$).toBe('a---b', { a: 'sub 1 binary', b: 'cancel 2 binary' });
        expectObservable(topic$, '----!').toBe('');
      });
    });

    it('paces the subs of several topics (the pacer decides when each goes out)', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), hot('-'), { pacer: pacer(10, 1, testScheduler) });
        const btc$ = topicSubscription(ctx, tradeRequest());
        const eth$ = topicSubscription(ctx, tradeRequest({ symbol: 'ETHUSDT' }));
        expectObservable(sent$, '^ 200ms !').toBe('-a 99ms b', { a: 'sub 1', b: 'sub 2' });
        expectObservable(btc$, '^ 200ms !').toBe('');
        expectObservable(eth$, '^ 200ms !').toBe('');
      });
    });

    it('subscribes again, with a new id, on every new epoch; messages carry the epoch they came in', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const link = hot('-a--l----b', { a: 1, l: 0, b: 2 });
        const inbound = hot('--x-------y', { x: trades(['x']), y: trades(['y']) });
        const { ctx, sent$ } = setup(link, inbound);
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$, '^-----------!').toBe('-a-------b', { a: 'sub 1', b: 'sub 2' });
        expectObservable(topic$, '^-----------!').toBe('--x-------y', { x: emitted(['x'], 1), y: emitted(['y'], 2) });
      });
    });

    it('routes by the echoed id of the current sub', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // the service names the symbol differently, but echoes the request id
        const inbound = hot('--x', { x: { symbol: 'BTC-USDT', topic: 'trade', data: ['x'], id: '1' } });
        const { ctx } = setup(hot('-a', { a: 1 }), inbound);
        expectObservable(topicSubscription(ctx, tradeRequest()), '^---!').toBe('--x', { x: emitted(['x'], 1) });
      });
    });
  });

  describe('unanswered and silent topics', () => {
    it("re-sends an unanswered sub after subscribeTimeoutMs, then after reconnect's backoff (never less than the timeout)", () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // random 0.5: waits max(10, round(0.5 * 10 * 2^(n-1))) after the n-th sub: 10, 10, 20, 40
        const inbound = hot('50ms x', { x: trades(['x']) });
        const { ctx, sent$, log } = setup(hot('-a', { a: 1 }), inbound, { subscribeTimeoutMs: 10 });
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$).toBe('-a 9ms b 9ms c 19ms d 158ms e', {
          a: 'sub 1',
          b: 'sub 2',
          c: 'sub 3',
          d: 'sub 4',
          e: 'cancel 5',
        });
        expectObservable(topic$, '^ 199ms !').toBe('50ms x', { x: emitted(['x'], 1) });
        testScheduler.flush();
        // answered at 50: the wait ending at 81 sends nothing more
        expect(log.filter((l) => l.startsWith('resubscribed'))).toEqual(['resubscribed@11', 'resubscribed@21', 'resubscribed@41']);
      });
    });

    it('caps the wait between unanswered subs at a minute', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, sent$ } = setup(hot('a', { a: 1 }), hot('-'), { subscribeTimeoutMs: 20_000, random: () => 0.999_999 });
        const topic$ = topicSubscription(ctx, tradeRequest());
        // waits: max(20 s, 20 s), max(20 s, 40 s), then 60 s (not 80 s)
        expectObservable(sent$, '^ 130s !').toBe('a 19999ms b 39999ms c 59999ms d', { a: 'sub 1', b: 'sub 2', c: 'sub 3', d: 'sub 4' });
        expectObservable(topic$, '^ 130s !').toBe('');
      });
    });

    it('takes a success code (0) as the answer: no sub is re-sent', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const inbound = hot('--x', { x: { code: 0, id: '1', symbol: SYMBOL, topic: 'trade' } });
        const { ctx, sent$, log } = setup(hot('a', { a: 1 }), inbound, { subscribeTimeoutMs: 10 });
        expectObservable(sent$).toBe('a 49ms b', { a: 'sub 1', b: 'cancel 2' });
        expectObservable(topicSubscription(ctx, tradeRequest()), '^ 49ms !').toBe('');
        testScheduler.flush();
        expect(log).toEqual([]);
      });
    });

    it('cancels and subscribes again a topic that delivers nothing for staleAfterMs', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // silence is measured from the last data message (5, then 31), or from the sub while none came since
        const inbound = hot('-----x-------------------------y', { x: trades(['x']), y: trades(['y']) });
        const { ctx, sent$, log } = setup(hot('a', { a: 1 }), inbound);
        const topic$ = topicSubscription(ctx, tradeRequest({ staleAfterMs: 20 }));
        expectObservable(sent$).toBe('a 24ms (bc) 22ms (de) 5ms f', { a: 'sub 1', b: 'cancel 2', c: 'sub 3', d: 'cancel 4', e: 'sub 5', f: 'cancel 6' });
        expectObservable(topic$, '^ 59ms !').toBe('-----x-------------------------y', { x: emitted(['x'], 1), y: emitted(['y'], 1) });
        testScheduler.flush();
        expect(log.filter((l) => l.startsWith('stale'))).toEqual(['stale@25', 'stale@51']);
      });
    });

    it('counts the silence of an answered topic, and re-sends an unanswered sub instead, when both are on', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // sub at 0 unanswered: again at 10; answered at 12; the wait for that answer ends at 20, and the silence
        // watch starts then, counting from 12: stale at 42 (cancel 3, sub 4), which goes unanswered: sub 5 at 52
        const inbound = hot('------------x', { x: trades(['x']) });
        const { ctx, sent$, log } = setup(hot('a', { a: 1 }), inbound, { subscribeTimeoutMs: 10 });
        const topic$ = topicSubscription(ctx, tradeRequest({ staleAfterMs: 30 }));
        expectObservable(sent$).toBe('a 9ms b 31ms (cd) 6ms e 3ms f', { a: 'sub 1', b: 'sub 2', c: 'cancel 3', d: 'sub 4', e: 'sub 5', f: 'cancel 6' });
        expectObservable(topic$, '^ 55ms !').toBe('------------x', { x: emitted(['x'], 1) });
        testScheduler.flush();
        expect(log.filter((l) => !l.startsWith('delivered'))).toEqual(['resubscribed@10', 'stale@42', 'resubscribed@52']);
      });
    });
  });

  describe('cancelling', () => {
    it('sends no cancel for a sub that never went out (still waiting for its pacing slot)', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), hot('-'), { pacer: pacer(10, 1, testScheduler) });
        const btc$ = topicSubscription(ctx, tradeRequest());
        const eth$ = topicSubscription(ctx, tradeRequest({ symbol: 'ETHUSDT' }));
        expectObservable(sent$, '^ 200ms !').toBe('-a 59ms b', { a: 'sub 1', b: 'cancel 2' });
        expectObservable(btc$, '^ 60ms !').toBe('');
        expectObservable(eth$, '^ 50ms !').toBe(''); // its slot was at 101
      });
    });

    it('sends no cancel when its sub went out on an earlier socket (the new one has not been subscribed yet)', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // the sub on epoch 2 waits for the pacer until 101; the last subscriber leaves at 50, the socket open
        const link = hot('-a 5ms l 2ms b', { a: 1, l: 0, b: 2 });
        const { ctx, sent$, router } = setup(link, hot('-'), { pacer: pacer(10, 1, testScheduler) });
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$, '^ 200ms !').toBe('-a', { a: 'sub 1' });
        expectObservable(topic$, '^ 49ms !').toBe('');
        testScheduler.flush();
        expect(router.epoch).toBe(2);
        expect(router.size).toBe(0);
      });
    });

    it('tries the cancel when the socket of its sub is down (sendIfOpen drops it)', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, sent$ } = setup(hot('-a-l', { a: 1, l: 0 }), hot('-'));
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$).toBe('-a---b', { a: 'sub 1', b: 'cancel 2 (dropped)' });
        expectObservable(topic$, '^----!').toBe('');
      });
    });
  });

  describe('ends', () => {
    it('errors with SubscriptionRejectedError on a service error frame, counts it, and sends no cancel', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const inbound = hot('---x', { x: { code: -100010, desc: 'Invalid Symbols!', id: '1', symbol: SYMBOL, topic: 'trade' } });
        const { ctx, sent$, log, sizes } = setup(hot('-a', { a: 1 }), inbound);
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$).toBe('-a', { a: 'sub 1' });
        expectObservable(topic$).toBe('---#', undefined, new SubscriptionRejectedError(SYMBOL, 'trade', -100010, 'Invalid Symbols!'));
        testScheduler.flush();
        expect(log).toEqual(['rejected@3']);
        expect(sizes).toEqual([1, 0]);
      });
    });

    it("takes the error frame's msg when it has no desc", () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const inbound = hot('--x', { x: { code: '-1121', msg: 'Invalid symbol.', symbol: SYMBOL, topic: 'trade' } });
        const { ctx } = setup(hot('a', { a: 1 }), inbound);
        expectObservable(topicSubscription(ctx, tradeRequest())).toBe('--#', undefined, new SubscriptionRejectedError(SYMBOL, 'trade', '-1121', 'Invalid symbol.'));
      });
    });

    it('errors with the error of the feed (the connection gave up), and can be subscribed again', () => {
      testScheduler.run(({ hot, cold, expectObservable }) => {
        const lost = new ConnectionClosedError(4001, 'invalid listen key', true);
        const inbound = cold('----#', undefined, lost);
        const { ctx, sent$, sizes } = setup(hot('-a', { a: 1 }), inbound);
        const topic$ = topicSubscription(ctx, tradeRequest());
        // the teardown of each run sends its cancel: this fake's socket stays open
        expectObservable(sent$, '^ 20ms !').toBe('-a--b-c---d', { a: 'sub 1', b: 'cancel 2', c: 'sub 3', d: 'cancel 4' });
        expectObservable(topic$).toBe('----#', undefined, lost);
        expectObservable(topic$, '------^ 5ms !').toBe('------ 4ms #', undefined, lost);
        testScheduler.flush();
        expect(sizes).toEqual([1, 0, 1, 0]);
      });
    });
  });
});
