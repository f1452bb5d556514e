import * as t from 'io-ts';
import { BehaviorSubject, defer, filter, ignoreElements, merge, type Observable, share, startWith, Subject, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { SubscriptionRequest } from '../../../lib/codecs/requests';
import { ConnectionClosedError, SubscriptionRejectedError, TopicQuarantinedError } from '../../../lib/errors';
import { marketFeed } from '../../../lib/market/internal/marketFeed';
import { type Pacer, pacer } from '../../../lib/market/internal/pacer';
import { type RequestBatcherConfig, requestBatcher } from '../../../lib/market/internal/requestBatcher';
import { type TopicContext, type TopicRequest, type TopicStatus, topicSubscription } from '../../../lib/market/internal/topicSubscription';
import type { MarketMessage } from '../../../lib/market/marketMessage';
import type { Connection, ConnectionCore } from '../../../lib/socket/connection';
import type { ConnectionStatus } from '../../../lib/socket/connectionStatus';
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

  /** What `setup` takes beyond the context: the pacer and the batcher's settings. */
  interface SetupOptions extends Partial<TopicContext> {
    readonly pacer?: Pacer;
    readonly batch?: Partial<Pick<RequestBatcherConfig, 'maxSymbolsPerFrame' | 'quarantineAfterCloses' | 'answerWindowMs' | 'suspectDelayMs'>>;
  }

  /**
   * A TopicContext built by hand around a minimal fake connection driven by two marble observables:
   * - `link`: the socket's state, an epoch when one opens, 0 when it is lost (a negative value: lost with that
   *   close code, else 1006) (`opened$` replays the current epoch while open, `sendIfOpen` sends only then);
   * - `inbound`: the frames the service sends, handed to the real `marketFeed` (so the real `TopicRouter`
   *   routes them and tracks the epoch).
   * Requests go through the real `requestBatcher` (one frame per `(topic, binary)` group, symbols comma-joined).
   * Every frame sent goes to `sent$` as `event id` (then its symbols when not just BTCUSDT, its topic when not
   * `trade`, ` binary` for zip, ` (dropped)` when no socket was open).
   */
  function setup(link: Observable<number>, inbound: Observable<unknown>, options: SetupOptions = {}) {
    const { pacer: paced = pacer(10, 10, testScheduler), batch = {}, ...overrides } = options;
    let current = 0;
    const status = new BehaviorSubject<ConnectionStatus>({ type: 'closed', epoch: 0 });
    let lastEpoch = 0;
    link.subscribe((epoch) => {
      current = Math.max(0, epoch);
      if (epoch > 0) {
        lastEpoch = epoch;
        status.next({ type: 'open', epoch, since: testScheduler.now() });
      } else status.next({ type: 'reconnecting', epoch: lastEpoch, attempt: 1, delayMs: 0, cause: new ConnectionClosedError(epoch < 0 ? -epoch : 1006, '', false) });
    });
    const sent$ = new Subject<string>();
    const conn = {
      opened$: defer(() => {
        const opens = link.pipe(filter((epoch) => epoch > 0));
        return current > 0 ? opens.pipe(startWith(current)) : opens;
      }),
      sendIfOpen: (frame: unknown) => {
        const { event, id, params, symbol, topic } = frame as SubscriptionRequest;
        const what = `${symbol === SYMBOL ? '' : ` ${symbol}`}${topic === 'trade' ? '' : ` ${topic}`}`;
        sent$.next(`${event} ${id}${what}${params.binary ? ' binary' : ''}${current > 0 ? '' : ' (dropped)'}`);
        return current > 0;
      },
    } as unknown as Connection;
    const core: ConnectionCore = {
      connection: conn,
      frames: (sink) => inbound.pipe(tap((message) => sink(message, testScheduler.now())), ignoreElements()),
    };
    const log: string[] = [];
    const sizes: number[] = [];
    let lastId = 0;
    const requests = requestBatcher({
      send: (frame) => conn.sendIfOpen(frame),
      pacer: paced,
      scheduler: testScheduler,
      random: () => 0.5,
      nextId: () => ++lastId,
      maxSymbolsPerFrame: 20,
      quarantineAfterCloses: 3,
      answerWindowMs: 1000,
      suspectDelayMs: 250,
      report: (e) => log.push(`reported ${e.name}: ${e.message}@${testScheduler.now()}`),
      ...batch,
    });
    const kept = new Map<string, { last: unknown }>();
    const topicStatus: TopicStatus = {
      frameAt: 0,
      keptMessage: (topic) => {
        let holder = kept.get(topic);
        if (holder === undefined) kept.set(topic, (holder = { last: undefined }));
        return holder;
      },
      delivered: (sentAt) => log.push(`delivered ${sentAt}@${testScheduler.now()}`),
      resubscribed: () => log.push(`resubscribed@${testScheduler.now()}`),
      stale: () => log.push(`stale@${testScheduler.now()}`),
      rejected: () => log.push(`rejected@${testScheduler.now()}`),
      topicsChanged: (size) => sizes.push(size),
    };
    const { router, feed$ } = marketFeed(core, {
      onFrame: (now) => (topicStatus.frameAt = now),
      onDecodeError: (e) => log.push(`decode error ${e.message}`),
      onServiceFrame: (frame, byId) => requests.serviceFrame(frame, byId),
    });
    const ctx: TopicContext = {
      conn,
      router,
      feed$: merge(requests.watch(status), feed$).pipe(share()),
      requests,
      scheduler: testScheduler,
      subscribeTimeoutMs: Infinity,
      random: () => 0.5,
      status: topicStatus,
      ...overrides,
    };
    return { ctx, sent$, log, sizes, router, kept };
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

    it("keeps one message per topic name, the last of any symbol's (the parsed shapes stay alive; no symbol's message outlives the next)", () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const link = hot('-a', { a: 1 });
        const x = trades([{ t: 100 }]);
        const y = { ...trades([{ t: 200 }]), symbol: 'ETHUSDT' };
        const z = trades([{ t: 300 }]);
        const { ctx, kept } = setup(link, hot('---x-y-z', { x, y, z }));
        expectObservable(topicSubscription(ctx, tradeRequest()), '^--------!').toBe('---x---z', {
          x: emitted([{ t: 100 }], 1),
          z: emitted([{ t: 300 }], 1),
        });
        expectObservable(topicSubscription(ctx, tradeRequest({ symbol: 'ETHUSDT' })), '^--------!').toBe('-----y', {
          y: { ...emitted([{ t: 200 }], 1), symbol: 'ETHUSDT' },
        });
        const at: unknown[] = [];
        testScheduler.schedule(() => at.push(kept.get('trade')?.last), 4);
        testScheduler.schedule(() => at.push(kept.get('trade')?.last), 6);
        testScheduler.schedule(() => at.push(kept.get('trade')?.last), 8);
        testScheduler.flush();
        expect(at).toEqual([x, y, z]);
        expect([...kept.keys()]).toEqual(['trade']);
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

    it('paces the request frames (the pacer decides when each goes out)', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), hot('-'), { pacer: pacer(10, 1, testScheduler) });
        const trade$ = topicSubscription(ctx, tradeRequest());
        const depth$ = topicSubscription(ctx, tradeRequest({ topic: 'depth' }));
        expectObservable(sent$, '^ 200ms !').toBe('-a 99ms b', { a: 'sub 1', b: 'sub 2 depth' });
        expectObservable(trade$, '^ 200ms !').toBe('');
        expectObservable(depth$, '^ 200ms !').toBe('');
      });
    });

    it('batches the subs of topics waiting together: one frame per request topic, symbols comma-joined, at most maxSymbolsPerFrame', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // sub 1 (BTC, ETH) and sub 2 (SOL) are trades; the data of a batch is routed by symbol, of a lone sub by its id too
        const inbound = hot('---xyz', {
          x: { symbol: 'ETHUSDT', topic: 'trade', data: ['e'], id: '1' },
          y: { symbol: 'SOL-USDT', topic: 'trade', data: ['s'], id: '2' },
          z: { symbol: 'BTCUSDT', topic: 'trade', data: ['b'], id: '1' },
        });
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), inbound, { batch: { maxSymbolsPerFrame: 2 } });
        const topics = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'].map((symbol) => topicSubscription(ctx, tradeRequest({ symbol })));
        const depth$ = topicSubscription(ctx, tradeRequest({ topic: 'depth' }));
        expectObservable(sent$, '^ 9ms !').toBe('-(abc)-(de)', {
          a: 'sub 1 BTCUSDT,ETHUSDT',
          b: 'sub 2 SOLUSDT',
          c: 'sub 3 depth',
          d: 'cancel 4 BTCUSDT,ETHUSDT',
          e: 'cancel 5 SOLUSDT',
        });
        const data = (symbol: string, x: string) => ({ ...emitted([x], 1), symbol });
        expectObservable(topics[0]!, '^ 6ms !').toBe('-----z', { z: data('BTCUSDT', 'b') });
        expectObservable(topics[1]!, '^ 6ms !').toBe('---x', { x: data('ETHUSDT', 'e') });
        expectObservable(topics[2]!, '^ 6ms !').toBe('----y', { y: data('SOLUSDT', 's') });
        expectObservable(depth$, '^ 19ms !').toBe('');
      });
    });

    it('batches the subs of every live topic again on a new socket', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // both answered before the socket was lost (a topic lost while waiting for its answer is a suspect: below)
        const inbound = hot('--(xy)', { x: trades(['x']), y: { ...trades(['y']), symbol: 'ETHUSDT' } });
        const { ctx, sent$ } = setup(hot('-a----l-b', { a: 1, l: 0, b: 2 }), inbound);
        const topics = ['BTCUSDT', 'ETHUSDT'].map((symbol) => topicSubscription(ctx, tradeRequest({ symbol })));
        expectObservable(sent$, '^ 9ms !').toBe('-a------b', { a: 'sub 1 BTCUSDT,ETHUSDT', b: 'sub 2 BTCUSDT,ETHUSDT' });
        expectObservable(topics[0]!, '^ 9ms !').toBe('--x', { x: emitted(['x'], 1) });
        expectObservable(topics[1]!, '^ 9ms !').toBe('--y', { y: { ...emitted(['y'], 1), symbol: 'ETHUSDT' } });
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
        // the depth sub waits for the slot at 101 and leaves at 50; the last topic's cancel leaves with the socket
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), hot('-'), { pacer: pacer(10, 1, testScheduler) });
        const trade$ = topicSubscription(ctx, tradeRequest());
        const depth$ = topicSubscription(ctx, tradeRequest({ topic: 'depth' }));
        expectObservable(sent$, '^ 200ms !').toBe('-a 59ms b', { a: 'sub 1', b: 'cancel 2' });
        expectObservable(trade$, '^ 60ms !').toBe('');
        expectObservable(depth$, '^ 50ms !').toBe('');
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

  describe("the service's word on a sub (issue 27)", () => {
    const bare = { code: '-100010', desc: 'Invalid Symbols!' };
    const of = (symbol: string, data: unknown[], epoch = 1) => ({ ...emitted(data, epoch), symbol });
    const on = (symbol: string, data: unknown[]) => trades(data, { symbol });
    const reported = (log: string[]) => log.filter((l) => l.startsWith('reported'));

    it('sends a sub refused for now (a rate limit) again after a capped, jittered backoff, reports each refusal, and does not end it', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // random 0.5: waits max(1000, 0.5 * 1000 * 2^(n-1)): 1000, 1000, 2000
        const limit = (id: string, code: number | string) => ({ id, code, desc: 'Too many requests', symbol: SYMBOL, topic: 'trade' });
        const inbound = hot('2ms x 1001ms y 1001ms z 2001ms w', { x: limit('1', '-1003'), y: limit('2', '-1003'), z: limit('3', -1003), w: trades(['w']) });
        const { ctx, sent$, log } = setup(hot('a', { a: 1 }), inbound);
        const topic$ = topicSubscription(ctx, tradeRequest());
        expectObservable(sent$).toBe('a 1001ms b 1001ms c 2001ms d 3ms e', { a: 'sub 1', b: 'sub 2', c: 'sub 3', d: 'sub 4', e: 'cancel 5' });
        expectObservable(topic$, '^ 4009ms !').toBe('4008ms w', { w: emitted(['w'], 1) });
        testScheduler.flush();
        const why = 'SubscriptionRetriedError: subscription BTCUSDT trade refused for now: code -1003: Too many requests (a rate limit); sent again after a backoff';
        expect(reported(log)).toEqual([`reported ${why}@2`, `reported ${why}@1004`, `reported ${why}@2006`]);
      });
    });

    it.each([
      ['-1015', 'a rate limit'],
      [-1000, 'the service is busy or failing'],
      ['-1001', 'the service is busy or failing'],
      [-1006, 'the service is busy or failing'],
      ['-1007', 'the service is busy or failing'],
      ['-1016', 'the service is busy or failing'],
      ['-99999', 'a code the library does not know'],
      ['E42', 'a code the library does not know'],
      [-1099, 'a code the library does not know'],
      ['-1131', 'a code the library does not know'],
    ])('takes code %p for "not now" (%s): reported, sent again, not ended', (code, words) => {
      testScheduler.run(({ hot, expectObservable }) => {
        const inbound = hot('2ms x', { x: { id: '1', code, symbol: SYMBOL, topic: 'trade' } });
        const { ctx, sent$, log } = setup(hot('a', { a: 1 }), inbound);
        expectObservable(sent$, '^ 1500ms !').toBe('a 1001ms b', { a: 'sub 1', b: 'sub 2' });
        expectObservable(topicSubscription(ctx, tradeRequest()), '^ 1500ms !').toBe('');
        testScheduler.flush();
        expect(reported(log)).toEqual([`reported SubscriptionRetriedError: subscription BTCUSDT trade refused for now: code ${code} (${words}); sent again after a backoff@2`]);
      });
    });

    it.each([['-100010'], [-100011], ['-100012'], ['-100001'], [-1121], ['-1020'], [-1100], ['-1102'], [-1130], [' -1121 ']])(
      'ends the topic on code %p, a rejection of the request itself (text or number)',
      (code) => {
        testScheduler.run(({ hot, expectObservable }) => {
          const inbound = hot('2ms x', { x: { id: '1', code, msg: 'no', symbol: SYMBOL, topic: 'trade' } });
          const { ctx, sent$, log } = setup(hot('a', { a: 1 }), inbound);
          expectObservable(sent$).toBe('a', { a: 'sub 1' });
          expectObservable(topicSubscription(ctx, tradeRequest())).toBe('2ms #', undefined, new SubscriptionRejectedError(SYMBOL, 'trade', code, 'no'));
          testScheduler.flush();
          expect(reported(log)).toEqual([]);
        });
      },
    );

    it('reads a hostile error frame without throwing: huge code, words and symbol list; the errors it makes are short and redacted', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const secret = 'aB3'.repeat(20); // a listen-key-like run
        const hostile = { code: `-1003${'9'.repeat(10_000)}`, desc: `${secret} ${'w'.repeat(100_000)}`, symbol: `${'X,'.repeat(200_000)}${SYMBOL}`, topic: 'trade' };
        const rejection = { code: '-100010', desc: `unknown ${secret}`, symbol: SYMBOL, topic: 'depth' };
        const { ctx, log } = setup(hot('a', { a: 1 }), hot('2ms x 2ms y', { x: hostile, y: rejection }));
        expectObservable(topicSubscription(ctx, tradeRequest()), '^ 1500ms !').toBe('');
        expectObservable(topicSubscription(ctx, tradeRequest({ topic: 'depth' })), '^ 1500ms !').toBe(
          '5ms #',
          undefined,
          new SubscriptionRejectedError(SYMBOL, 'depth', '-100010', 'unknown ***'),
        );
        testScheduler.flush();
        const reports = reported(log);
        expect(reports).toHaveLength(1);
        expect(reports[0]!.length).toBeLessThan(400);
        expect(reports[0]).not.toContain(secret.slice(0, 12));
        expect(reports[0]).toContain('(a code the library does not know)');
      });
    });

    it('puts a bare rejection (no id, no symbol) down to the one sub waiting for its answer', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, sent$ } = setup(hot('a', { a: 1 }), hot('2ms x', { x: bare }));
        expectObservable(sent$).toBe('a', { a: 'sub 1' });
        expectObservable(topicSubscription(ctx, tradeRequest())).toBe('2ms #', undefined, new SubscriptionRejectedError(SYMBOL, 'trade', '-100010', 'Invalid Symbols!'));
      });
    });

    it('reports a bare rejection when no sub waits for an answer (answered, or sent more than the answer window ago)', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { ctx, log } = setup(hot('a', { a: 1 }), hot('1001ms x', { x: bare }));
        expectObservable(topicSubscription(ctx, tradeRequest()), '^ 1500ms !').toBe('');
        testScheduler.flush();
        expect(log).toEqual(['decode error public stream error frame for no live subscription: code -100010']);
      });
    });

    it('splits a refused batch and sends the halves again, one at a time, until the culprit stands alone: it alone ends', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // sub 1 (all three) refused at 3: halves (BTC, ETH) and (SOL) go out alone, once the socket is 250 ms old:
        // (BTC, ETH) refused again at 253: SOL, then BTC alone (refused at 257: it ends), then ETH
        const inbound = hot('---x 249ms y-z-w-v', { x: bare, y: bare, z: on('SOLUSDT', ['s']), w: bare, v: on('ETHUSDT', ['e']) });
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), inbound);
        const [btc$, eth$, sol$] = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'].map((symbol) => topicSubscription(ctx, tradeRequest({ symbol })));
        expectObservable(sent$, '^ 280ms !').toBe('-a 249ms b-c-d-e', {
          a: 'sub 1 BTCUSDT,ETHUSDT,SOLUSDT',
          b: 'sub 2 BTCUSDT,ETHUSDT',
          c: 'sub 3 SOLUSDT',
          d: 'sub 4',
          e: 'sub 5 ETHUSDT',
        });
        expectObservable(btc$!, '^ 299ms !').toBe('257ms #', undefined, new SubscriptionRejectedError(SYMBOL, 'trade', '-100010', 'Invalid Symbols!'));
        expectObservable(eth$!, '^ 299ms !').toBe('259ms v', { v: of('ETHUSDT', ['e']) });
        expectObservable(sol$!, '^ 299ms !').toBe('255ms z', { z: of('SOLUSDT', ['s']) });
      });
    });

    it('holds other subs back while a suspect waits for its answer (and the suspect while they wait for theirs)', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // BTC alone at 251 (a half of the refused sub 1); the depth topic asked for at 252 waits for BTC's answer (255),
        // ETH (the other half) for the depth's answer (257)
        const inbound = hot('---x 251ms y-z', { x: bare, y: on(SYMBOL, ['t']), z: { symbol: SYMBOL, topic: 'depth', data: ['d'] } });
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), inbound);
        const [btc$, eth$] = ['BTCUSDT', 'ETHUSDT'].map((symbol) => topicSubscription(ctx, tradeRequest({ symbol })));
        expectObservable(btc$!, '^ 299ms !').toBe('255ms y', { y: of(SYMBOL, ['t']) });
        expectObservable(eth$!, '^ 299ms !').toBe('');
        expectObservable(topicSubscription(ctx, tradeRequest({ topic: 'depth' })), '252ms ^ 47ms !').toBe('257ms z', { z: { ...emitted(['d'], 1), topic: 'depth' } });
        expectObservable(sent$, '^ 280ms !').toBe('-a 249ms b 3ms c-d', { a: 'sub 1 BTCUSDT,ETHUSDT', b: 'sub 2', c: 'sub 3 depth', d: 'sub 4 ETHUSDT' });
      });
    });

    it('with several frames waiting, sends each of their topics again alone, in turn: the next bare rejection is unambiguous', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const inbound = hot('---x 249ms y-z-w', { x: bare, y: on(SYMBOL, ['t']), z: bare, w: { symbol: SYMBOL, topic: 'depth', data: ['d'] } });
        const { ctx, sent$ } = setup(hot('-a', { a: 1 }), inbound);
        const [btc$, eth$] = ['BTCUSDT', 'ETHUSDT'].map((symbol) => topicSubscription(ctx, tradeRequest({ symbol })));
        const depth$ = topicSubscription(ctx, tradeRequest({ topic: 'depth' }));
        expectObservable(sent$, '^ 280ms !').toBe('-(ab) 246ms c-d-e', { a: 'sub 1 BTCUSDT,ETHUSDT', b: 'sub 2 depth', c: 'sub 3', d: 'sub 4 ETHUSDT', e: 'sub 5 depth' });
        expectObservable(btc$!, '^ 299ms !').toBe('253ms y', { y: of(SYMBOL, ['t']) });
        expectObservable(eth$!, '^ 299ms !').toBe('255ms #', undefined, new SubscriptionRejectedError('ETHUSDT', 'trade', '-100010', 'Invalid Symbols!'));
        expectObservable(depth$, '^ 299ms !').toBe('257ms w', { w: { ...emitted(['d'], 1), topic: 'depth' } });
      });
    });

    it('sends every topic of a batch refused for now again (one report naming them), comma-joined', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const inbound = hot('2ms x', { x: { code: -1003, symbol: 'BTCUSDT,ETHUSDT', topic: 'trade' } });
        const { ctx, sent$, log } = setup(hot('a', { a: 1 }), inbound);
        for (const symbol of ['BTCUSDT', 'ETHUSDT']) expectObservable(topicSubscription(ctx, tradeRequest({ symbol })), '^ 1500ms !').toBe('');
        expectObservable(sent$, '^ 1400ms !').toBe('a 1001ms b', { a: 'sub 1 BTCUSDT,ETHUSDT', b: 'sub 2 BTCUSDT,ETHUSDT' });
        testScheduler.flush();
        expect(reported(log)).toEqual([
          'reported SubscriptionRetriedError: subscription BTCUSDT, ETHUSDT trade refused for now: code -1003 (a rate limit); sent again after a backoff@2',
        ]);
      });
    });
  });

  describe('a poison topic (issue 27)', () => {
    it('quarantines a topic whose lone sub the socket did not survive 3 times in a row; the others are subscribed without it', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // 1: both in one frame, lost at 3 (code 1008): suspects, each alone. Epoch 2 (10): GOOD alone at 260 (the
        // socket is 250 ms old), answered; BAD alone at 262, lost at once (1). Epochs 3, 4: GOOD at the open, BAD 250 ms
        // later, lost (2, 3): quarantined at 781. Epoch 5: GOOD alone.
        const link = hot('-a-l 6ms b 252ms l 6ms c 250ms l 8ms d 250ms l 8ms e', { a: 1, b: 2, c: 3, d: 4, e: 5, l: -1008 });
        const good = (x: string) => trades([x], { symbol: 'GOODUSDT' });
        const inbound = hot('262ms w 9ms x 259ms y 259ms z', { w: good('w'), x: good('x'), y: good('y'), z: good('z') });
        const { ctx, sent$, log } = setup(link, inbound);
        const good$ = topicSubscription(ctx, tradeRequest({ symbol: 'GOODUSDT' }));
        const bad$ = topicSubscription(ctx, tradeRequest({ symbol: 'BADUSDT' }));
        expectObservable(sent$, '^ 795ms !').toBe('-a 258ms b-c 7ms d 249ms e 9ms f 249ms g 9ms h', {
          a: 'sub 1 GOODUSDT,BADUSDT',
          b: 'sub 2 GOODUSDT',
          c: 'sub 3 BADUSDT',
          d: 'sub 4 GOODUSDT',
          e: 'sub 5 BADUSDT',
          f: 'sub 6 GOODUSDT',
          g: 'sub 7 BADUSDT',
          h: 'sub 8 GOODUSDT',
        });
        const of = (x: string, epoch: number) => ({ ...emitted([x], epoch), symbol: 'GOODUSDT' });
        expectObservable(good$, '^ 799ms !').toBe('262ms w 9ms x 259ms y 259ms z', { w: of('w', 2), x: of('x', 3), y: of('y', 4), z: of('z', 5) });
        expectObservable(bad$, '^ 799ms !').toBe('781ms #', undefined, new TopicQuarantinedError('BADUSDT', 'trade', 1008, 3));
        testScheduler.flush();
        expect(log.filter((l) => l.startsWith('rejected'))).toEqual(['rejected@781']);
      });
    });

    it('blames no topic when the service closes every socket at once: a suspect waits until the socket is 250 ms old', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        // the first sub was waiting when socket 1 was lost (a strike); sockets 2-5 die before the suspect may go out
        // (no sub waiting: the strikes are cleared); socket 6 lives: the suspect goes out at 296
        const link = hot('-1-l 6ms 2-l 6ms 3-l 6ms 4-l 6ms 5-l 6ms 6', { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, l: -4002 });
        const { ctx, sent$ } = setup(link, hot('-'));
        expectObservable(sent$, '^ 390ms !').toBe('-a 294ms b', { a: 'sub 1', b: 'sub 2' });
        expectObservable(topicSubscription(ctx, tradeRequest()), '^ 399ms !').toBe('');
      });
    });
  });
});
