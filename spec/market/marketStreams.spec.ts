import { distinctUntilChanged, filter, map, type Observable, take } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ConfigError, DecodeError, RateLimitedError, SubscriptionRejectedError } from '../../lib/errors';
import { customKlineInterval } from '../../lib/market/klineInterval';
import { marketStreams, type MarketStreamsConfig } from '../../lib/market/marketStreams';
import type { RestKline } from '../../lib/codecs/rest/marketData';
import { restClient } from '../../lib/rest/restClient';
import type { MarketStatus } from '../../lib/market/marketStatus';
import type { TradeGap } from '../../lib/operators/distinctTrades';
import { fakeWebSocket, type FakeWebSocket } from '../../lib/testing/fakeWebSocket';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';
import { zipText } from '../helpers/zipFrames';

interface EnvelopeOptions {
  readonly id?: string;
  readonly f?: boolean;
  readonly klineType?: string;
  readonly binary?: boolean;
  readonly sendTime?: number;
}

const envelope = (symbol: string, topic: string, data: unknown[], o: EnvelopeOptions = {}) => ({
  symbol,
  symbolName: symbol,
  topic,
  params: { realtimeInterval: '24h', binary: String(o.binary ?? false), ...(o.klineType && { klineType: o.klineType }) },
  data,
  f: o.f ?? false,
  sendTime: o.sendTime ?? 1000,
  shared: false,
  ...(o.id !== undefined && { id: o.id }),
});

const trade = (v: string, p = '1') => ({ v, t: 1, p, q: '1', m: true });
const book = (t: number) => ({ t, a: [['2', '1']], b: [] });
const kline = (t: number, c: string) => ({ t, s: 'BTCUSDT', sn: 'BTCUSDT', o: '1', h: '2', l: '0.5', c, v: '10' });

/** The subscription frames a socket was sent, as `event symbol topic id binary`. */
function requests(socket: FakeWebSocket | undefined): string[] {
  return (socket?.sentJson() ?? [])
    .filter((f): f is { event: string; symbol: string; topic: string; id: number; params: { binary: boolean } } => typeof f === 'object' && f !== null && 'event' in f)
    .map((f) => `${f.event} ${f.symbol} ${f.topic} ${f.id}${f.params.binary ? ' binary' : ''}`);
}

describe('marketStreams', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  function setup(config: Partial<MarketStreamsConfig> = {}) {
    const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
    const market = marketStreams({
      url: 'ws://127.0.0.1/quote/ws/v1',
      WebSocketCtor: fake.WebSocketCtor,
      scheduler: testScheduler,
      connection: { pingIntervalMs: 1000, heartbeatTimeoutMs: 10_000, reconnect: { minDelayMs: 10, random: () => 0.5, resetAfterMs: 1 } },
      ...config,
    });
    return { fake, market };
  }

  describe('reference counting', () => {
    it('shares one server subscription between observers and cancels after the last one leaves', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, market } = setup();
        const a = market.tradeMessages('BTCUSDT');
        fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('1')], { id: '1', f: true })));
        fake.at(6, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('2')], { id: '1' })));
        const m1 = { symbol: 'BTCUSDT', topic: 'trade', first: true, sendTime: 1000, epoch: 1, data: [trade('1')] };
        const m2 = { ...m1, first: false, data: [trade('2')] };
        expectObservable(a, '^ 7ms !').toBe('3ms a 2ms b', { a: m1, b: m2 });
        expectObservable(a, '2ms ^ 9ms !').toBe('3ms a 2ms b', { a: m1, b: m2 });
        expectObservable(market.depth('BTCUSDT'), '^ 19ms !').toBe('');
        testScheduler.schedule(() => expect(requests(fake.latest())).toEqual(['sub BTCUSDT trade 1', 'sub BTCUSDT depth 2']), 11);
        testScheduler.schedule(
          () => expect(requests(fake.latest())).toEqual(['sub BTCUSDT trade 1', 'sub BTCUSDT depth 2', 'cancel BTCUSDT trade 3']),
          13,
        );
        expectSubscriptions(fake.logs).toBe(['^ 19ms !']);
        testScheduler.flush();
        expect(requests(fake.latest())).toEqual(['sub BTCUSDT trade 1', 'sub BTCUSDT depth 2', 'cancel BTCUSDT trade 3', 'cancel BTCUSDT depth 4']);
        expect(fake.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
      });
    });

    it('decodes zip frames transparently; an observer joining a live topic shares its encoding', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        const d5 = { t: 5, a: [['2', '1']], b: [] };
        const d6 = { t: 6, a: [['3', '1']], b: [] };
        fake.at(3, (s) => s.receive(zipText(JSON.stringify(envelope('BTCUSDT', 'depth', [d5], { id: '1', binary: true })))));
        fake.at(5, (s) => s.receive(zipText(JSON.stringify(envelope('BTCUSDT', 'depth', [d6], { id: '1', binary: true })))));
        fake.at(4, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('1')], { id: '2' })));
        expectObservable(market.depth('BTCUSDT', { binary: true }), '^ 9ms !').toBe('3ms a 1ms b', { a: d5, b: d6 });
        expectObservable(market.depth('BTCUSDT'), '4ms ^ 9ms !').toBe('5ms b', { b: d6 });
        expectObservable(market.trades('BTCUSDT'), '^ 9ms !').toBe('4ms a', { a: trade('1') });
        expectObservable(market.errors$, '^ 19ms !').toBe('');
        testScheduler.flush();
        expect(requests(fake.latest())).toEqual(['sub BTCUSDT depth 1 binary', 'sub BTCUSDT trade 2', 'cancel BTCUSDT trade 3', 'cancel BTCUSDT depth 4 binary']);
        expect(fake.logs).toEqual([{ subscribedFrame: 0, unsubscribedFrame: 14 }]);
      });
    });
  });

  describe('routing', () => {
    it('routes by echoed id first, by (symbol, topic, klineType) otherwise, and drops what nobody asked for', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'kline', [kline(60_000, '1.5')], { id: '1', klineType: '1m' })));
        fake.at(4, (s) => s.receive(envelope('BTCUSDT', 'kline', [kline(0, '9')], { klineType: '5m' }))); // by key: kline_5m
        fake.at(5, (s) => s.receive(envelope('ETHUSDT', 'kline', [kline(0, '7')], { klineType: '1m' }))); // nobody
        fake.at(6, (s) => s.receive(envelope('BTCUSDT', 'kline', [kline(60_000, '1.6')], { id: '99', klineType: '1m' }))); // stale id → key
        fake.at(7, (s) => s.receive(envelope('BTCUSDT', 'kline', [kline(0, '8')], { id: '2', klineType: '1m' }))); // the id wins
        expectObservable(market.klines('BTCUSDT', '1m'), '^ 9ms !').toBe('3ms a 2ms b', { a: kline(60_000, '1.5'), b: kline(60_000, '1.6') });
        expectObservable(market.klines('BTCUSDT', '5m'), '^ 9ms !').toBe('4ms a 2ms b', { a: kline(0, '9'), b: kline(0, '8') });
        expectObservable(market.errors$, '^ 9ms !').toBe('');
        testScheduler.flush();
        expect(requests(fake.latest()).slice(0, 2)).toEqual(['sub BTCUSDT kline_1m 1', 'sub BTCUSDT kline_5m 2']);
      });
    });

    it('flattens the records of each message in order, and stops mid-message when the observer leaves', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        const [a, b, c, d] = [kline(0, '1'), kline(60_000, '2'), kline(120_000, '3'), kline(180_000, '4')];
        fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'kline', [a, b, c], { id: '1', klineType: '1m' })));
        fake.at(9, (s) => s.receive(envelope('BTCUSDT', 'kline', [d], { id: '1', klineType: '1m' })));
        expectObservable(market.klines('BTCUSDT', '1m'), '^ 12ms !').toBe('3ms (abc)-d', { a, b, c, d });
        expectObservable(market.klines('BTCUSDT', '1m').pipe(take(2)), '^ 12ms !').toBe('3ms (ab|)', { a, b });
      });
    });

    it('handles each message of a frame that batches several (a JSON array), and reports only the bad one', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        fake.at(3, (s) =>
          s.receive([
            envelope('BTCUSDT', 'trade', [trade('1')], { id: '1', f: true }),
            { pong: 5 },
            envelope('ETHUSDT', 'trade', [trade('8')], { id: '2', f: true }),
            42,
            envelope('BTCUSDT', 'trade', [trade('2')], { id: '1' }),
          ]),
        );
        expectObservable(market.trades('BTCUSDT').pipe(map((t) => t.v)), '^ 9ms !').toBe('3ms (ab)', { a: '1', b: '2' });
        expectObservable(market.trades('ETHUSDT').pipe(map((t) => t.v)), '^ 9ms !').toBe('3ms a', { a: '8' });
        expectObservable(market.errors$.pipe(map((e) => e.message)), '^ 9ms !').toBe('3ms e', { e: 'unrecognised public stream message' });
      });
    });

    it('errors only the rejected subscription with SubscriptionRejectedError and sends it no cancel', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        fake.at(3, (s) => s.receive({ id: '1', code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade' }));
        fake.at(4, (s) => s.receive({ code: '-100010', desc: 'Invalid Topic!', symbol: 'BTCUSDT', topic: 'kline_7x' }));
        fake.at(5, (s) => s.receive(envelope('BTCUSDT', 'realtimes', [{ t: 1, o: '1', h: '1', l: '1', c: '1', v: '1' }], { id: '3' })));
        expectObservable(market.trades('NOPE'), '^ 9ms !').toBe('3ms #', undefined, new SubscriptionRejectedError('NOPE', 'trade', '-100010', 'Invalid Symbols!'));
        expectObservable(market.klines('BTCUSDT', customKlineInterval('7x')), '^ 9ms !').toBe('4ms #', undefined, new SubscriptionRejectedError('BTCUSDT', 'kline_7x', '-100010', 'Invalid Topic!'));
        expectObservable(market.realtimes('BTCUSDT'), '^ 9ms !').toBe('5ms a', { a: { t: 1, o: '1', h: '1', l: '1', c: '1', v: '1' } });
        expectObservable(market.status$, '9ms (^!)').toBe('9ms a', {
          a: { connection: { type: 'open', epoch: 1, since: 1 }, topics: 1, tradeGaps: 0, klineRefetches: 0, klineGaps: 0, decodeErrors: 0, rejections: 2, resubscribes: 0, staleResubscribes: 0, dataAgeMs: 0 },
        });
        testScheduler.flush();
        expect(requests(fake.latest())).toEqual(['sub NOPE trade 1', 'sub BTCUSDT kline_7x 2', 'sub BTCUSDT realtimes 3', 'cancel BTCUSDT realtimes 4']);
      });
    });

    it('reports records and frames that fail their codec on errors$ and keeps the stream going', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('1'), { ...trade('2'), p: { bad: 1 } }, trade('3')], { id: '1' })));
        fake.at(4, (s) => s.receive({ topic: 'trade', data: 'nope' }));
        fake.at(5, (s) => s.receive('{not json'));
        fake.at(8, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('4')], { id: '1' })));
        expectObservable(market.trades('BTCUSDT'), '^ 9ms !').toBe('3ms (ab) 1ms c', { a: trade('1'), b: trade('3'), c: trade('4') });
        const errors: Error[] = [];
        market.errors$.subscribe((e) => errors.push(e));
        testScheduler.flush();
        expect(errors.map((e) => [e.name, (e as DecodeError).kind])).toEqual([
          ['DecodeError', 'codec'],
          ['DecodeError', 'codec'],
          ['DecodeError', 'json'],
        ]);
        expect((errors[0] as DecodeError).paths.join()).toContain('TradeRecord/p');
      });
    });
  });

  describe('reconnects', () => {
    it('re-sends sub for every live topic on the new socket, and nothing for topics that left meanwhile', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, market } = setup();
        // every topic answered before the socket is lost (one lost while waiting for its answer is a suspect: see below)
        fake.at(3, (s) => {
          s.receive(envelope('BTCUSDT', 'trade', [trade('6')], { id: '1', f: true }));
          for (const symbol of ['BTCUSDT', 'ETHUSDT']) s.receive(envelope(symbol, 'depth', [book(3)], { id: '2' }));
        });
        fake.at(5, (s) => s.closeFromServer({ code: 1006 })); // next socket at 10, open at 11
        fake.at(12, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('7')], { id: '4', f: true })));
        expectObservable(market.tradeMessages('BTCUSDT'), '^ 19ms !').toBe('3ms a 8ms b', {
          a: { symbol: 'BTCUSDT', topic: 'trade', first: true, sendTime: 1000, epoch: 1, data: [trade('6')] },
          b: { symbol: 'BTCUSDT', topic: 'trade', first: true, sendTime: 1000, epoch: 2, data: [trade('7')] },
        });
        expectObservable(market.depth('BTCUSDT'), '^ 19ms !').toBe('3ms a', { a: book(3) });
        expectObservable(market.depth('ETHUSDT'), '^ 7ms !').toBe('3ms a', { a: book(3) }); // leaves while disconnected
        expectSubscriptions(fake.logs).toBe(['^ 4ms !', '10ms ^ 9ms !']);
        testScheduler.flush();
        // the depth topics share one frame (issue 27: one sub frame per request topic, symbols comma-joined)
        expect(requests(fake.sockets[0])).toEqual(['sub BTCUSDT trade 1', 'sub BTCUSDT,ETHUSDT depth 2']);
        // id 3 went to the ETHUSDT cancel that could not be sent (no socket at 8)
        expect(requests(fake.sockets[1])).toEqual(['sub BTCUSDT trade 4', 'sub BTCUSDT depth 5', 'cancel BTCUSDT trade 6', 'cancel BTCUSDT depth 7']);
      });
    });

    it.each([
      // the clock estimate: offset 10 000 ± 1 (a round trip of 2 ms): the earliest local time of 10 020 is 19
      ['read ~30 ms after it was written: the gap starts when it was written, at the earliest', 10_020, 19, undefined],
      ['stamped before the socket opened (a server clock far behind): the gap starts at the open', 5, 1, undefined],
      ['stamped after it arrived (a server clock ahead): the gap starts at its arrival', 10_080, 50, undefined],
      // a pong read at 55 says the service wrote it at its 10 054 (local 53 at the earliest): all before it came
      ['read ~30 ms after it was written, then a pong: the gap starts when the pong was written, at the earliest', 10_020, 53, 10_054],
    ] as const)('dates the gap of a lost socket by its last message, %s', (_, sendTime, downSince, pong: number | undefined) => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({ connection: { pingIntervalMs: 100_000, heartbeatTimeoutMs: 200_000, reconnect: { minDelayMs: 10, random: () => 0.5 } } });
        // ping at 1, pong at 3 carrying server time 10 002: the server clock is 10 000 ms ahead
        fake.at(3, (s) => s.receive({ pong: 10_002 }));
        fake.at(50, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(50)], { id: '1', sendTime })));
        if (pong !== undefined) fake.at(55, (s) => s.receive({ pong }));
        fake.at(60, (s) => s.closeFromServer({ code: 1006 })); // next socket after 5 ms, open at 66
        expectObservable(market.depth('BTCUSDT').pipe(map((b) => b.t)), '^ 99ms !').toBe('50ms a', { a: 50 });
        const reopened$ = market.status$.pipe(
          map((st) => st.connection),
          filter((c) => c.type === 'open' && c.epoch === 2),
        );
        expectObservable(reopened$, '^ 99ms !').toBe('66ms a', { a: { type: 'open', epoch: 2, since: 66, downSince } });
      });
    });

    it('paces (re)subscriptions: a burst, then resubscribeRatePerSecond', () => {
      testScheduler.run(({ expectObservable }) => {
        // one topic a frame (batching: below)
        const { fake, market } = setup({ resubscribeRatePerSecond: 100, subscribeBurst: 2, maxSymbolsPerFrame: 1 });
        for (const symbol of ['A', 'B', 'C', 'D']) expectObservable(market.depth(symbol), '^ 79ms !').toBe('30ms a', { a: book(30) });
        // answered before the socket is lost (topics lost while waiting for their answer go out one by one: see below)
        fake.at(30, (s) => ['A', 'B', 'C', 'D'].forEach((symbol) => s.receive(envelope(symbol, 'depth', [book(30)]))));
        fake.at(40, (s) => s.closeFromServer({ code: 1006 })); // next socket opens at 46
        const seen: Array<[number, number]> = [];
        for (const t of [2, 10, 12, 20, 22, 31, 47, 55, 57, 65, 67, 77]) {
          testScheduler.schedule(() => seen.push([t, requests(fake.latest()).length]), t);
        }
        testScheduler.flush();
        expect(seen).toEqual([[2, 2], [10, 2], [12, 3], [20, 3], [22, 4], [31, 4], [47, 2], [55, 2], [57, 3], [65, 3], [67, 4], [77, 4]]);
      });
    });
  });

  describe('pacing slots given up (issue 27)', () => {
    it('after 1000 subscribe/unsubscribe cycles, a new topic is subscribed at once: nothing of the cycles was sent or kept', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({ subscribeBurst: 2 });
        expectObservable(market.depth('ANCHOR'), '^ 199ms !').toBe(''); // keeps the socket open; its sub takes a slot at 1
        testScheduler.schedule(() => {
          for (let i = 0; i < 1000; i++) market.trades(`S${i}USDT`).subscribe().unsubscribe();
          const fresh = market.trades('NEWUSDT').subscribe();
          testScheduler.schedule(() => fresh.unsubscribe(), 50);
        }, 50);
        // the burst (2) had one slot left: the new sub leaves in the frame it was asked for (after the 0 ms gathering)
        testScheduler.schedule(() => expect(requests(fake.latest())).toEqual(['sub ANCHOR depth 1', 'sub NEWUSDT trade 2']), 50.5);
      });
    });
  });

  describe('unanswered subscriptions', () => {
    it('sends a sub again when it brought no message within subscribeTimeoutMs, then after reconnect\'s jittered backoff (never less than the timeout), until one arrives', () => {
      testScheduler.run(({ expectObservable }) => {
        // random 0.75: the n-th sub waits max(100, 0.75 * 100 * 2^(n-1)): 100, 150, 300 (plain doubling: 100, 200, 400)
        const { fake, market } = setup({ subscribeTimeoutMs: 100, random: () => 0.75, connection: { pingIntervalMs: 10_000, heartbeatTimeoutMs: 60_000 } });
        expectObservable(market.depth('BTCUSDT').pipe(map((d) => d.t)), '^ 999ms !').toBe('600ms a', { a: 5 });
        expectObservable(market.depth('ETHUSDT').pipe(map((d) => d.t)), '^ 999ms !').toBe('50ms a', { a: 6 });
        // both go out in sub 1; ETHUSDT answers at once; BTCUSDT's subs (sent at 1, 101, 251, 551) are lost until the fourth is answered at 600
        fake.at(50, (s) => s.receive(envelope('ETHUSDT', 'depth', [{ t: 6, a: [['2', '1']], b: [] }], { id: '1' })));
        fake.at(600, (s) => s.receive(envelope('BTCUSDT', 'depth', [{ t: 5, a: [['2', '1']], b: [] }], { id: '4' })));
        const btcSubs: string[] = [];
        for (const t of [100, 102, 250, 252, 550, 552, 900]) {
          testScheduler.schedule(() => btcSubs.push(`${t}: ${requests(fake.latest()).filter((r) => r.startsWith('sub BTCUSDT')).length}`), t);
        }
        const times: number[] = [];
        testScheduler.schedule(() => {
          market.status$.subscribe((st) => times.push(st.resubscribes)).unsubscribe();
          expect(requests(fake.latest())).toEqual(['sub BTCUSDT,ETHUSDT depth 1', 'sub BTCUSDT depth 2', 'sub BTCUSDT depth 3', 'sub BTCUSDT depth 4']);
          expect(btcSubs).toEqual(['100: 1', '102: 2', '250: 2', '252: 3', '550: 3', '552: 4', '900: 4']);
          expect(times).toEqual([3]);
        }, 950);
      });
    });

    it('caps the backoff between unanswered subs at a minute before the injected jitter applies', () => {
      testScheduler.run(() => {
        const { fake, market } = setup({ subscribeTimeoutMs: 10_000, random: () => 0.5, connection: { pingIntervalMs: 600_000, heartbeatTimeoutMs: 1_200_000 } });
        const sub = market.trades('BTCUSDT').subscribe();
        // waits max(10 000, 0.5 * min(60 000, 10 000 * 2^(n-1))): 10 000, 10 000, 20 000, then 30 000 each:
        // subs at 1, 10 001, 20 001, 40 001, 70 001, 100 001, 130 001, 160 001, 190 001 (plain doubling: 6 subs)
        testScheduler.schedule(() => {
          expect(requests(fake.latest()).length).toBe(9);
          sub.unsubscribe();
        }, 200_000);
      });
    });

    it('counts an acknowledgement (code 0 with the id) as an answer', () => {
      testScheduler.run(() => {
        const { fake, market } = setup({ subscribeTimeoutMs: 100, connection: { pingIntervalMs: 10_000, heartbeatTimeoutMs: 60_000 } });
        const sub = market.trades('BTCUSDT').subscribe();
        fake.at(5, (s) => s.receive({ id: '1', code: 0, msg: 'Success' }));
        testScheduler.schedule(() => {
          expect(requests(fake.latest())).toEqual(['sub BTCUSDT trade 1']);
          sub.unsubscribe();
        }, 900);
      });
    });
  });

  describe('staleness', () => {
    it('cancels and subscribes again a topic silent for its staleAfterMs, counted in status$.staleResubscribes', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({
          subscribeTimeoutMs: 50,
          staleAfterMs: { depth: 100 },
          connection: { pingIntervalMs: 10_000, heartbeatTimeoutMs: 60_000 },
        });
        // answered at 10, 20, 30, then silent: noticed at 130 (30 + 100; the watch starts after the answer check at 51), cancel 2 + sub 3
        for (const t of [10, 20, 30]) fake.at(t, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(t)], { id: '1' })));
        for (let t = 160; t <= 400; t += 20) fake.at(t, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(t)], { id: '3' })));
        const times$ = market.depth('BTCUSDT').pipe(map((d) => d.t));
        const values: number[] = [];
        const sub = times$.subscribe((t) => values.push(t));
        testScheduler.schedule(() => sub.unsubscribe(), 409);
        const stale$ = market.status$.pipe(map((st) => st.staleResubscribes), distinctUntilChanged());
        expectObservable(stale$, '^ 409ms !').toBe('a 129ms b', { a: 0, b: 1 });
        testScheduler.schedule(() => expect(requests(fake.latest())).toEqual(['sub BTCUSDT depth 1']), 129);
        testScheduler.schedule(() => {
          expect(requests(fake.latest())).toEqual(['sub BTCUSDT depth 1', 'cancel BTCUSDT depth 2', 'sub BTCUSDT depth 3']);
          expect(values).toEqual([10, 20, 30, 160, 180, 200, 220, 240, 260, 280, 300, 320, 340, 360, 380, 400]);
        }, 405);
      });
    });

    it('never resubscribes a quiet trade topic by default; depth after 30 s, realtimes after 60 s, kline_1m after 120 s', () => {
      testScheduler.run(() => {
        const { fake, market } = setup({ connection: { pingIntervalMs: 10_000, heartbeatTimeoutMs: 600_000 } });
        const topics: Observable<unknown>[] = [market.trades('BTCUSDT'), market.depth('BTCUSDT'), market.realtimes('BTCUSDT'), market.klines('BTCUSDT', '1m')];
        const subs = topics.map((o) => o.subscribe());
        // each answers once at 5 ms, then the market is quiet
        fake.at(5, (s) => {
          s.receive(envelope('BTCUSDT', 'trade', [trade('1')], { id: '1', f: true }));
          s.receive(envelope('BTCUSDT', 'depth', [book(5)], { id: '2' }));
          s.receive(envelope('BTCUSDT', 'realtimes', [{ t: 1, o: '1', h: '1', l: '1', c: '1', v: '1' }], { id: '3' }));
          s.receive(envelope('BTCUSDT', 'kline', [kline(0, '1')], { id: '4', klineType: '1m' }));
        });
        // subs at 1, answered at 5; the silence watch starts after the answer check at 10 001 and counts from 5
        const cancels = (): string[] => requests(fake.latest()).filter((r) => r.startsWith('cancel')).map((r) => r.split(' ')[2]!);
        const checks: Array<[number, string[]]> = [];
        for (const t of [30_004, 30_006, 60_004, 60_006, 120_004, 120_006, 300_000]) testScheduler.schedule(() => checks.push([t, cancels()]), t);
        testScheduler.schedule(() => subs.forEach((sub) => sub.unsubscribe()), 300_001);
        testScheduler.flush();
        expect(checks).toEqual([
          [30_004, []],
          [30_006, ['depth']],
          [60_004, ['depth']],
          [60_006, ['depth', 'realtimes']],
          [120_004, ['depth', 'realtimes']],
          [120_006, ['depth', 'realtimes', 'kline_1m']],
          [300_000, expect.not.arrayContaining(['trade'])],
        ]);
      });
    });

    it('rejects a staleAfterMs that cannot work', () => {
      expect(() => marketStreams({ url: 'ws://x', staleAfterMs: { depth: 0 } })).toThrow('staleAfterMs.depth must be a positive number');
    });
  });

  describe('status$', () => {
    const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'ETHBTC'];
    const summary = (s: MarketStatus): string => `${s.connection.type} ${s.connection.epoch} topics ${s.topics}`;

    it('emits 4 times before the first data of a 12-topic startup: a burst of subscriptions moves the counters once', () => {
      // Before: 15 emissions (one per topic counted, closed and connecting included)
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        fake.at(5, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(5)], { id: '2', sendTime: 5 })));
        const shown: string[] = [];
        const sub = market.status$.subscribe((s) => shown.push(`${testScheduler.now()} ${summary(s)} age ${s.dataAgeMs}`));
        testScheduler.schedule(() => sub.unsubscribe(), 14);
        for (const symbol of SYMBOLS) {
          expectObservable(market.trades(symbol), '^ 9ms !').toBe('');
          expectObservable(market.depth(symbol).pipe(map(() => 'd')), '^ 9ms !').toBe(symbol === 'BTCUSDT' ? '5ms d' : '');
          expectObservable(market.realtimes(symbol), '^ 9ms !').toBe('');
          expectObservable(market.klines(symbol, '1m'), '^ 9ms !').toBe('');
        }
        testScheduler.flush();
        expect(shown).toEqual([
          '0 closed 0 topics 0 age undefined',
          '0 connecting 0 topics 0 age undefined',
          '0 connecting 0 topics 12 age undefined', // the burst of 12 subscriptions, once
          '1 open 1 topics 12 age undefined',
          '5 open 1 topics 12 age 0', // the first data
          // the last observers leave at 10: the socket closes, the counters move once more
          '10 closed 1 topics 12 age 0',
          '10 closed 1 topics 0 age 0',
        ]);
      });
    });

    it('replays the current status at once and stays silent when counters end where they were', () => {
      testScheduler.run(({ expectObservable }) => {
        const { market } = setup();
        // a topic subscribed and left in the same burst: `topics` goes 0 → 1 → 0, nothing to show
        testScheduler.schedule(() => market.depth('BTCUSDT').subscribe().unsubscribe(), 3);
        expectObservable(market.status$.pipe(map(summary)), '^ 9ms !').toBe('a 2ms (bc)', { a: 'closed 0 topics 0', b: 'connecting 0 topics 0', c: 'closed 0 topics 0' });
      });
    });
  });

  describe('dataAgeMs', () => {
    it('publishes the age of the last delivered value on the server-corrected clock, at most once a second and by a step', () => {
      // deliveries at 10, 1500, 2500, 3500: each is at least a second after the last refresh
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({ connection: { pingIntervalMs: 100_000, heartbeatTimeoutMs: 200_000 } });
        // ping at 1, pong at 3 carrying server time 10 002: the server clock is 10 000 ms ahead
        fake.at(3, (s) => s.receive({ pong: 10_002 }));
        const depthAt = (t: number, sendTime: number) => fake.at(t, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(t)], { id: '1', sendTime })));
        depthAt(10, 10_005); // age 5
        depthAt(1500, 11_000); // age 500: a consumer falling behind
        depthAt(2500, 12_490); // age 10: caught up
        depthAt(3500, 13_300); // age 200: a 190 ms move is not worth an emission
        expectObservable(market.depth('BTCUSDT').pipe(map(() => 0)), '^ 4999ms !').toBe('10ms a 1489ms a 999ms a 999ms a', { a: 0 });
        const age$ = market.status$.pipe(map((st) => st.dataAgeMs), distinctUntilChanged());
        expectObservable(age$, '^ 4999ms !').toBe('u 9ms a 1489ms b 999ms c', { u: undefined, a: 5, b: 500, c: 10 });
      });
    });
      it('refreshes by a timer when the feed pauses', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({ connection: { pingIntervalMs: 100_000, heartbeatTimeoutMs: 200_000 } });
        fake.at(10, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(10)], { id: '1', sendTime: 5 }))); // age 5, refreshed
        fake.at(500, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(500)], { id: '1', sendTime: -100 }))); // age 600, too soon
        // too soon at 500: a one-shot timer publishes 600 when the next refresh is due (1010)
        const sub = market.depth('BTCUSDT').subscribe();
        testScheduler.schedule(() => sub.unsubscribe(), 2999);
        const age$ = market.status$.pipe(map((st) => st.dataAgeMs), distinctUntilChanged());
        expectObservable(age$, '^ 2999ms !').toBe('u 9ms a 999ms b', { u: undefined, a: 5, b: 600 });
      });
    });
  });

  describe('rest: the REST clock from public pongs', () => {
    it('hands each pong sample to rest.clockSample while a topic is subscribed: the signing offset follows the service', () => {
      testScheduler.run(() => {
        const fed: string[] = [];
        const rest = restClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', secretKey: 's', scheduler: testScheduler, fetch: () => Promise.reject(new Error('no call expected')) });
        const recorder = { clockSample: (offsetMs: number, rttMs: number) => {
          fed.push(`${testScheduler.now()}: ${offsetMs}/${rttMs}`);
          rest.clockSample(offsetMs, rttMs);
        } };
        const { fake, market } = setup({ rest: recorder });
        const offsets: number[] = [];
        const sub = market.depth('BTCUSDT').subscribe();
        // ping at 1, pong at 3 carrying 10 002: the service is 10 000 ms ahead (round trip 2)
        fake.at(3, (s) => s.receive({ pong: 10_002 }));
        testScheduler.schedule(() => offsets.push(rest.serverTimeOffsetMs()), 4);
        // ping at 1001, pong at 1005: a slower sample (round trip 4) is handed on; the REST clock keeps the better one
        fake.at(1005, (s) => s.receive({ pong: 11_013 }));
        testScheduler.schedule(() => offsets.push(rest.serverTimeOffsetMs()), 1006);
        testScheduler.schedule(() => sub.unsubscribe(), 1500);
        // a new subscription opens a new socket (at 2001, ping at once): its pongs are fed again
        testScheduler.schedule(() => {
          const again = market.depth('BTCUSDT').subscribe();
          testScheduler.schedule(() => again.unsubscribe(), 1000);
        }, 2000);
        fake.at(2003, (s) => s.receive({ pong: 12_500 }));
        testScheduler.schedule(() => offsets.push(rest.serverTimeOffsetMs()), 2004);
        testScheduler.schedule(() => {
          expect(fed).toEqual(['3: 10000/2', '1005: 10010/4', '2003: 10498/2']);
          expect(offsets).toEqual([10_000, 10_000, 10_498]);
        }, 5000);
      });
    });

    it('feeds nothing without a subscribed topic, and reports a clockSample that throws on errors$ while data flows', () => {
      testScheduler.run(({ expectObservable }) => {
        let calls = 0;
        const { fake, market } = setup({
          rest: {
            clockSample: () => {
              calls++;
              throw new Error('clock broke');
            },
          },
        });
        market.serverClock.offset$.subscribe(); // watching the clock opens nothing
        testScheduler.schedule(() => expect(calls).toBe(0), 500);
        const later = (t: number) => fake.at(t, (s) => s.receive(envelope('BTCUSDT', 'depth', [book(t)], { id: '1' })));
        testScheduler.schedule(() => {
          fake.at(3, (s) => s.receive({ pong: 10_002 })); // ping at 1001 (open at 1001), pong at 1003
          later(4);
        }, 1000);
        expectObservable(market.depth('BTCUSDT').pipe(map((d) => d.t)), '1000ms ^ 99ms !').toBe('1004ms a', { a: 4 });
        expectObservable(market.errors$.pipe(map((e) => e.message)), '^ 1099ms !').toBe('1003ms a', { a: 'clock broke' });
      });
    });
  });

  it('reports the decode errors of one batch frame as one error counting them, and still delivers its good records', () => {
    // A batch frame of 5 000 envelopes, each with a bad record, once gave 5 000 DecodeErrors (one per envelope).
    const bad = { t: 'x', a: [['2', '1']], b: [] };
    const batch = [...Array.from({ length: 5000 }, () => envelope('BTCUSDT', 'depth', [bad], { id: '1' })), envelope('BTCUSDT', 'depth', [book(7)], { id: '1' })];
    testScheduler.run(({ expectObservable }) => {
      const { fake, market } = setup();
      fake.at(3, (s) => s.receive(batch));
      expectObservable(market.depth('BTCUSDT'), '^ 9ms !').toBe('3ms a', { a: book(7) });
      const errors: Error[] = [];
      market.errors$.subscribe((e) => errors.push(e));
      testScheduler.schedule(() => {
        expect(errors).toHaveLength(1);
        expect(errors[0]).toBeInstanceOf(DecodeError);
        expect(errors[0]!.message).toContain('(and 4999 more decode errors in the same frame)');
        expect((errors[0] as DecodeError).paths.join('').length).toBeLessThan(2000);
      }, 8);
      let decodeErrors = -1;
      market.status$.subscribe((st) => (decodeErrors = st.decodeErrors));
      testScheduler.schedule(() => expect(decodeErrors).toBe(1), 8);
    });
  });

  describe('bare 64-bit integers (parsed as they are, re-parsed exactly when a check fails)', () => {
    const ID = '1447335405363150849'; // above 2^53: JSON.parse alone would round it to ...0848
    const text = (data: string, extra = '') =>
      `{"symbol":"BTCUSDT","symbolName":"BTCUSDT","topic":"trade","params":{"binary":"false"},"data":[${data}],"f":false,"sendTime":"1000"${extra}}`;

    it('keeps a bare trade id exact, in a single message and in a batch frame, and a bare echoed id routes', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        fake.at(3, (s) => s.receive(text(`{"v":${ID},"t":1,"p":"1","q":"1","m":true}`)));
        fake.at(4, (s) => s.receive(`[${text(`{"v":${ID}1,"t":2,"p":"1","q":"1","m":true}`)}]`));
        fake.at(5, (s) => s.receive(text(`{"v":"${ID}2","t":3,"p":"1","q":"1","m":true},{"v":${ID}3,"t":4,"p":"1","q":"1","m":true}`)));
        fake.at(9, (s) => s.receive(text(`{"v":"7${ID}","t":5,"p":"1","q":"1","m":true}`, ',"id":1234567890123456789')));
        const ids = market.trades('BTCUSDT').pipe(map((t) => t.v));
        expectObservable(ids, '^ 12ms !').toBe('3ms a b (cd) e', { a: ID, b: `${ID}1`, c: `${ID}2`, d: `${ID}3`, e: `7${ID}` });
        expectObservable(market.errors$, '^ 12ms !').toBe('');
      });
    });

    it('still reports a record that is bad for another reason, once, and delivers the good ones', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        fake.at(3, (s) => s.receive(text(`{"v":${ID},"t":1,"p":"1","q":"1","m":true},{"v":"9","t":"x","p":"1","q":"1","m":true}`)));
        expectObservable(market.trades('BTCUSDT').pipe(map((t) => t.v)), '^ 9ms !').toBe('3ms a', { a: ID });
        expectObservable(market.errors$.pipe(map((e) => e instanceof DecodeError && /TradeRecord/.test(e.message + e.paths.join('')))), '^ 9ms !').toBe('3ms t', { t: true });
      });
    });
  });

  it('keeps no periodic timer: a marble run of ten virtual hours tears down without overflowing the stack', () => {
    // A periodic timer chains its virtual actions (each reschedule a child of the previous one): thousands of
    // ticks made the teardown of an 80-minute run throw RangeError (the data-age refresh once ran every second).
    testScheduler.run(({ expectObservable }) => {
      const { market } = setup({ connection: { pingIntervalMs: 600_000, heartbeatTimeoutMs: 1_200_000 } });
      expectObservable(market.depth('BTCUSDT'), '^ 600m !').toBe('');
    });
  });

  describe('trades', () => {
    it('emits each trade once across reconnects and signals a gap on gaps$ and status$', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({ tradeReplaySize: 2 });
        fake.at(2, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('1'), trade('2'), trade('3')], { id: '1', f: true })));
        fake.at(8, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('4')], { id: '1' })));
        fake.at(10, (s) => s.closeFromServer({ code: 1006 })); // reopens at 16
        fake.at(17, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('3'), trade('4'), trade('5')], { id: '2', f: true })));
        fake.at(20, (s) => s.closeFromServer({ code: 1006 })); // reopens at 26
        fake.at(27, (s) => s.receive(envelope('BTCUSDT', 'trade', [trade('9'), trade('10')], { id: '3', f: true })));
        const trades = { 1: trade('1'), 2: trade('2'), 3: trade('3'), 4: trade('4'), 5: trade('5'), 9: trade('9'), x: trade('10') };
        expectObservable(market.trades('BTCUSDT'), '^ 39ms !').toBe('2ms (123) 1ms 4 8ms 5 9ms (9x)', trades);
        expectObservable(market.trades('BTCUSDT'), '^ 39ms !').toBe('2ms (123) 1ms 4 8ms 5 9ms (9x)', trades);
        const gap: TradeGap = { symbol: 'BTCUSDT', lastSeenId: '5', firstNewId: '9', epoch: 3 };
        expectObservable(market.gaps$, '^ 39ms !').toBe('27ms g', { g: gap });
        testScheduler.schedule(() => {
          let tradeGaps = -1;
          market.status$.subscribe((s) => (tradeGaps = s.tradeGaps)).unsubscribe();
          expect(tradeGaps).toBe(1);
        }, 35);
      });
    });
  });

  it('throws a ConfigError for a pacing rate that cannot work', () => {
    expect(() => marketStreams({ url: 'ws://x', resubscribeRatePerSecond: 0 })).toThrow(ConfigError);
    expect(() => marketStreams({ url: 'ws://x', subscribeBurst: 1.5 })).toThrow(ConfigError);
  });

  it('throws a ConfigError for a batch size, a quarantine count, a symbol pattern or a symbol list that cannot work', () => {
    expect(() => marketStreams({ url: 'ws://x', maxSymbolsPerFrame: 0 })).toThrow(new ConfigError('maxSymbolsPerFrame', 'must be a positive integer'));
    expect(() => marketStreams({ url: 'ws://x', quarantineAfterCloses: 2.5 })).toThrow(new ConfigError('quarantineAfterCloses', 'must be a positive integer'));
    expect(() => marketStreams({ url: 'ws://x', symbolPattern: '^[A-Z]+$' as unknown as RegExp })).toThrow(new ConfigError('symbolPattern', 'must be a RegExp'));
    expect(() => marketStreams({ url: 'ws://x', symbols: 'BTCUSDT' })).toThrow(new ConfigError('symbols', 'must be an iterable of symbols (e.g. an array)'));
  });

  describe('symbols, checked before anything is sent (issue 27)', () => {
    it.each([
      ['empty', '', 'symbol must not be empty'],
      ['10 KB', 'x'.repeat(10_240), 'symbol "***…" (10240 characters) is longer than 64 characters'],
      ['a newline', 'BTC\nUSDT', 'symbol "BTC\\nUSDT" holds a comma or a control character (a comma would subscribe other symbols)'],
      ['a NUL', 'BTC\u0000', 'symbol "BTC\\u0000" holds a comma or a control character (a comma would subscribe other symbols)'],
      ['a comma', 'BTCUSDT,ETHUSDT', 'symbol "BTCUSDT,ETHUSDT" holds a comma or a control character (a comma would subscribe other symbols)'],
      ['a quote', 'BTC"USDT', 'symbol "BTC\\"USDT" does not match /^[A-Za-z0-9]{1,32}$/ (option symbolPattern)'],
      ['a bar', 'A|B', 'symbol "A|B" does not match /^[A-Za-z0-9]{1,32}$/ (option symbolPattern)'],
      ['a space', ' BTCUSDT', 'symbol " BTCUSDT" does not match /^[A-Za-z0-9]{1,32}$/ (option symbolPattern)'],
      ['a letter outside ASCII', 'BTCÜSDT', 'symbol "BTCÜSDT" does not match /^[A-Za-z0-9]{1,32}$/ (option symbolPattern)'],
      ['a secret-like run (never echoed)', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'symbol "***" (36 characters) does not match /^[A-Za-z0-9]{1,32}$/ (option symbolPattern)'],
    ])('refuses a symbol with %s: the topic errors with a ConfigError, no socket opens, no frame leaves', (_, symbol, message) => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        const error = new ConfigError('symbol', message.slice('symbol '.length));
        expect(error.message).toBe(message);
        expectObservable(market.trades(symbol), '^ 9ms !').toBe('#', undefined, error);
        expectObservable(market.depth(symbol), '^ 9ms !').toBe('#', undefined, error);
        expectObservable(market.klines(symbol, '1m'), '^ 9ms !').toBe('#', undefined, error);
        expectObservable(market.realtimesMessages(symbol), '^ 9ms !').toBe('#', undefined, error);
        expectObservable(market.errors$, '^ 9ms !').toBe('');
        testScheduler.flush();
        expect(fake.sockets).toHaveLength(0);
      });
    });

    it('refuses a symbol outside the symbols given (exchangeInfo), and lets the known ones through', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({ symbols: new Set(['BTCUSDT', 'ETHUSDT']) });
        expectObservable(market.trades('SOLUSDT'), '^ 5ms !').toBe('#', undefined, new ConfigError('symbol', '"SOLUSDT" is not one of the 2 symbols given (option symbols)'));
        expectObservable(market.trades('ETHUSDT'), '^ 5ms !').toBe('');
        testScheduler.flush();
        expect(requests(fake.latest())).toEqual(['sub ETHUSDT trade 1', 'cancel ETHUSDT trade 2']);
      });
    });

    it('takes symbolPattern (its g flag ignored), and refuses a comma whatever the pattern', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup({ symbolPattern: /^[A-Z]+-[A-Z]+$|^.+,.+$/g });
        expectObservable(market.depth('BTCUSDT'), '^ 5ms !').toBe('#', undefined, new ConfigError('symbol', '"BTCUSDT" does not match /^[A-Z]+-[A-Z]+$|^.+,.+$/g (option symbolPattern)'));
        expectObservable(market.depth('BTC,USDT'), '^ 5ms !').toBe('#', undefined, new ConfigError('symbol', '"BTC,USDT" holds a comma or a control character (a comma would subscribe other symbols)'));
        // the same symbol twice: a stateful (g) test would refuse the second
        expectObservable(market.depth('BTC-USDT'), '^ 5ms !').toBe('');
        expectObservable(market.trades('BTC-USDT'), '^ 5ms !').toBe('');
        testScheduler.flush();
        expect(requests(fake.latest())).toEqual(['sub BTC-USDT depth 1', 'sub BTC-USDT trade 2', 'cancel BTC-USDT depth 3', 'cancel BTC-USDT trade 4']);
      });
    });
  });

  describe('klines with history (issue 29)', () => {
    const restKline = (t: number): RestKline => ({ t, o: '1', h: '2', l: '0.5', c: '1.5', v: '10', closeTime: t + 59_999, qv: '15', n: 3 });
    const closed = (t: number) => ({ t, o: '1', h: '2', l: '0.5', c: '1.5', v: '10' });

    it('emits the closed candles before the first live one from GET /quote/v1/klines, then the live ones, the open one once', () => {
      testScheduler.run(({ cold, expectObservable }) => {
        const asked: unknown[] = [];
        const rest = {
          klines: (request: { symbol: string; interval: string; endTime?: number | undefined; limit?: number | undefined }) => {
            asked.push(request);
            // the service's answer holds the open candle too (t 180 000): it is not emitted twice
            return cold('-r|', { r: [60_000, 120_000, 180_000].filter((t) => t <= (request.endTime ?? Infinity)).map(restKline).concat([restKline(180_000)]) });
          },
        };
        const { fake, market } = setup({ klineHistory: { rest } });
        const [open, next] = [kline(180_000, '3'), kline(240_000, '4')];
        fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'kline', [open], { id: '1', klineType: '1m', f: true })));
        fake.at(9, (s) => s.receive(envelope('BTCUSDT', 'kline', [next], { id: '1', klineType: '1m' })));
        expectObservable(market.klines('BTCUSDT', '1m', { history: 2 }), '^ 12ms !').toBe('4ms (abc) d', { a: closed(60_000), b: closed(120_000), c: open, d: next });
        testScheduler.flush();
        expect(asked).toEqual([{ symbol: 'BTCUSDT', interval: '1m', endTime: 179_999, limit: 2 }]);
      });
    });

    it('lets the live candles flow when the history fails, and signals the gap on klineGaps$ (and the cause on errors$)', () => {
      testScheduler.run(({ cold, expectObservable }) => {
        const limited = new RateLimitedError(429, 1000, -1003, 'Too many requests');
        const { fake, market } = setup({ klineHistory: { rest: { klines: () => cold('-#', undefined, limited) } } });
        const [open, next] = [kline(180_000, '3'), kline(240_000, '4')];
        fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'kline', [open], { id: '1', klineType: '1m', f: true })));
        fake.at(9, (s) => s.receive(envelope('BTCUSDT', 'kline', [next], { id: '1', klineType: '1m' })));
        expectObservable(market.klines('BTCUSDT', '1m', { history: 5 }), '^ 12ms !').toBe('4ms a 4ms b', { a: open, b: next });
        expectObservable(market.klineGaps$, '^ 12ms !').toBe('4ms g', {
          g: { symbol: 'BTCUSDT', interval: '1m', reason: 'history', from: 180_000 - 5 * 60_000, to: 180_000, firstLiveTime: 180_000, missing: 5, error: limited },
        });
        expectObservable(market.errors$, '^ 12ms !').toBe('4ms e', { e: limited });
      });
    });

    it('refuses a history without klineHistory in the config, or one that is not a positive integer, before anything is sent', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, market } = setup();
        const needsRest = new ConfigError('history', 'needs `klineHistory: { rest }` in the marketStreams config (the candles come from GET /quote/v1/klines)');
        expectObservable(market.klines('BTCUSDT', '1m', { history: 10 })).toBe('#', undefined, needsRest);
        const { market: withRest } = setup({ klineHistory: { rest: restClient({ baseUrl: 'http://127.0.0.1:1' }) } });
        for (const history of [0, -1, 2.5, NaN]) {
          expectObservable(withRest.klines('BTCUSDT', '1m', { history })).toBe('#', undefined, new ConfigError('history', 'must be a positive integer'));
        }
        testScheduler.flush();
        expect(fake.sockets).toHaveLength(0);
      });
    });
  });
});
