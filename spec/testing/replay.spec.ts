import { distinctUntilChanged, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { marketStreams } from '../../lib/market/marketStreams';
import {
  depthEnvelope,
  depthRecord,
  type RecordedEvent,
  type Recording,
  replayMarket,
  testExchange,
  tradeEnvelope,
  tradeRecord,
} from '../../lib/testing';

/** A recorded trade frame of BTCUSDT (trade id `v`, recorded with request id 7: never the replay client's). */
const trade = (t: number, v: string, first = false): RecordedEvent => ({
  t,
  k: 'f',
  d: JSON.stringify({ ...tradeEnvelope(tradeRecord({ v, t }), { first, sendTime: t }), id: '7' }),
});

const T0 = 1_700_000_000_000;

/** Two connections: open, trades, a dropped socket (1006) at +100 ms, the next epoch at +130 ms. */
const recording: Recording = {
  events: [
    { t: T0, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade'] },
    { t: T0 + 10, k: 'open', epoch: 1 },
    trade(T0 + 12, '1', true),
    { t: T0 + 20, k: 'f', d: '{"pong":1700000000020}' },
    trade(T0 + 50, '2'),
    { t: T0 + 100, k: 'close', code: 1006, clean: false },
    { t: T0 + 130, k: 'open', epoch: 2 },
    trade(T0 + 131, '2', true),
    trade(T0 + 160, '3'),
    { t: T0 + 200, k: 'close', code: 1000, clean: true },
  ],
};

describe('replayMarket', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('plays the frames of subscribed topics at their recorded times, with the recorded reconnect as a new epoch', () => {
    const states: string[] = [];
    testScheduler.run(({ expectObservable }) => {
      const replay = replayMarket(recording, { scheduler: testScheduler });
      const messages = replay.tradeMessages('BTCUSDT').pipe(map((m) => `${m.epoch}:${m.data.map((r) => r.v).join()}:${m.first}`));
      expectObservable(messages).toBe('12ms a 37ms b 80ms c 28ms d 39ms |', { a: '1:1:true', b: '1:2:false', c: '2:2:true', d: '2:3:false' });
      // trades(): each id once across the reconnect
      expectObservable(replay.trades('BTCUSDT').pipe(map((r) => r.v))).toBe('12ms a 37ms b 109ms c 39ms |', { a: '1', b: '2', c: '3' });
      replay.status$
        .pipe(
          map((s) => `${s.connection.type} ${s.connection.epoch}`),
          distinctUntilChanged(),
          map((s) => `${testScheduler.now()} ${s}`),
        )
        .subscribe((s) => states.push(s));
    });
    // epochs open at their recorded times (+10 ms, +130 ms); the recording's last close ends everything at +200 ms
    expect(states.filter((s) => / (open|reconnecting) /.test(s))).toEqual(['10 open 1', '100 reconnecting 1', '130 open 2', '200 reconnecting 2']);
  });
});
