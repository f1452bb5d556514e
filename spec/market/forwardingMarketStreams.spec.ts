import type { TestScheduler } from 'rxjs/testing';
import { SubscriptionRejectedError } from '../../lib/errors';
import { forwardingMarketStreams } from '../../lib/market/marketStreams';
import { fakeWebSocket, type FakeWebSocket } from '../../lib/testing/fakeWebSocket';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';

/** The service's envelope: `f`, `sendTime`, `id` after the records (as the service and the simulator write it). */
const envelope = (symbol: string, topic: string, data: unknown[], o: { id?: string; f?: boolean; klineType?: string; sendTime?: number } = {}) => ({
  symbol,
  symbolName: symbol,
  topic,
  params: { realtimeInterval: '24h', binary: 'false', ...(o.klineType && { klineType: o.klineType }) },
  data,
  f: o.f ?? false,
  sendTime: o.sendTime ?? 1000,
  shared: false,
  ...(o.id !== undefined && { id: o.id }),
});

/** The subscription frames a socket was sent, as `event symbol topic id`. */
function requests(socket: FakeWebSocket | undefined): string[] {
  return (socket?.sentJson() ?? [])
    .filter((f): f is { event: string; symbol: string; topic: string; id: number } => typeof f === 'object' && f !== null && 'event' in f)
    .map((f) => `${f.event} ${f.symbol} ${f.topic} ${f.id}`);
}

describe('forwardingMarketStreams', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  function setup() {
    const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
    const market = forwardingMarketStreams({
      url: 'ws://127.0.0.1/quote/ws/v1',
      WebSocketCtor: fake.WebSocketCtor,
      scheduler: testScheduler,
      connection: { pingIntervalMs: 1000, heartbeatTimeoutMs: 10_000, reconnect: { minDelayMs: 10, random: () => 0.5, resetAfterMs: 1 } },
    });
    return { fake, market };
  }

  it('holds a topic as marketStreams does (sub, cancel) and hands over its messages with their envelope facts, records unread', () => {
    testScheduler.run(({ expectObservable }) => {
      const { fake, market } = setup();
      // records no codec would pass: not read, not reported
      fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'depth', [{ t: 'x', a: 'not levels' }], { id: '1', f: true, sendTime: 7 })));
      fake.at(4, (s) => s.receive(envelope('BTCUSDT', 'kline', [42], { klineType: '1m' }))); // by key: kline_1m
      fake.at(5, (s) => s.receive(envelope('BTCUSDT', 'depth', [null], { id: '1' })));
      expectObservable(market.hold('BTCUSDT', 'depth'), '^ 7ms !').toBe('3ms a 1ms b', {
        a: { symbol: 'BTCUSDT', topic: 'depth', first: true, sendTime: 7, epoch: 1, data: [] },
        b: { symbol: 'BTCUSDT', topic: 'depth', first: false, sendTime: 1000, epoch: 1, data: [] },
      });
      expectObservable(market.hold('BTCUSDT', 'kline_1m'), '^ 7ms !').toBe('4ms a', {
        a: { symbol: 'BTCUSDT', topic: 'kline_1m', first: false, sendTime: 1000, epoch: 1, data: [] },
      });
      expectObservable(market.errors$, '^ 9ms !').toBe('');
      testScheduler.flush();
      expect(requests(fake.latest())).toEqual(['sub BTCUSDT depth 1', 'sub BTCUSDT kline_1m 2', 'cancel BTCUSDT depth 3', 'cancel BTCUSDT kline_1m 4']);
    });
  });

  it('subscribes again on a new socket, and errors only a refused topic', () => {
    testScheduler.run(({ expectObservable }) => {
      const { fake, market } = setup();
      fake.at(3, (s) => s.receive(envelope('BTCUSDT', 'trade', [{ v: '1' }], { id: '1', f: true })));
      fake.at(3, (s) => s.receive({ id: '2', code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'depth' }));
      fake.at(5, (s) => s.closeFromServer({ code: 1006 })); // next socket at 10, open at 11
      fake.at(12, (s) => s.receive(envelope('BTCUSDT', 'trade', [{ v: '2' }], { id: '3', f: true })));
      expectObservable(market.hold('BTCUSDT', 'trade'), '^ 19ms !').toBe('3ms a 8ms b', {
        a: { symbol: 'BTCUSDT', topic: 'trade', first: true, sendTime: 1000, epoch: 1, data: [] },
        b: { symbol: 'BTCUSDT', topic: 'trade', first: true, sendTime: 1000, epoch: 2, data: [] },
      });
      expectObservable(market.hold('NOPE', 'depth'), '^ 19ms !').toBe('3ms #', undefined, new SubscriptionRejectedError('NOPE', 'depth', '-100010', 'Invalid Symbols!'));
      testScheduler.flush();
      expect(requests(fake.sockets[0])).toEqual(['sub BTCUSDT trade 1', 'sub NOPE depth 2']);
      expect(requests(fake.sockets[1])).toEqual(['sub BTCUSDT trade 3', 'cancel BTCUSDT trade 4']);
    });
  });

  it('routes what its envelope reader cannot read through the general path (a batch), and reports an unusable frame', () => {
    testScheduler.run(({ expectObservable }) => {
      const { fake, market } = setup();
      fake.at(3, (s) => s.receive([envelope('BTCUSDT', 'realtimes', [{ bad: 1 }], { id: '1' }), { pong: 1 }]));
      fake.at(4, (s) => s.receive({ symbol: 'BTCUSDT', topic: 'realtimes', data: 'nope' }));
      expectObservable(market.hold('BTCUSDT', 'realtimes'), '^ 7ms !').toBe('3ms a', {
        a: { symbol: 'BTCUSDT', topic: 'realtimes', first: false, sendTime: 1000, epoch: 1, data: [{ bad: 1 }] },
      });
      const errors: Error[] = [];
      market.errors$.subscribe((e) => errors.push(e));
      testScheduler.flush();
      expect(errors.map((e) => e.name)).toEqual(['DecodeError']);
    });
  });
});
