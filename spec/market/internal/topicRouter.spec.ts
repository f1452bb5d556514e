import * as t from 'io-ts';
import { FAIL, type FastCheck, type Prechecked } from '../../../lib/codecs/fastCheck';
import type { DecodeError } from '../../../lib/errors';
import { type RoutedTopic, TopicRouter } from '../../../lib/market/internal/topicRouter';

/** A routed topic that records what reached it, as `name:<first record>`. */
function topicOf(symbol: string, topic: string, name: string, log: string[]): RoutedTopic {
  return {
    symbol,
    topic,
    codec: t.unknown,
    check: undefined,
    deliver: (_envelope, records) => log.push(`${name}:${String(records[0])}`),
  };
}

const message = (symbol: string, topic: string, record: string, extra: Record<string, unknown> = {}) => ({
  symbol,
  topic,
  data: [record],
  ...extra,
});

describe('TopicRouter', () => {
  function setup() {
    const log: string[] = [];
    const issues: DecodeError[] = [];
    const router = new TopicRouter((issue) => issues.push(issue));
    return { log, issues, router };
  }

  it('routes every message of a run of one topic, and follows adds and removes between two messages at once', () => {
    const { log, issues, router } = setup();
    const a = topicOf('BTCUSDT', 'trade', 'a', log);
    router.add(a);
    router.add(topicOf('BTCUSDT', 'depth', 'depth', log));
    router.dispatch(message('BTCUSDT', 'trade', '1'));
    router.dispatch(message('BTCUSDT', 'trade', '2'));
    router.dispatch(message('BTCUSDT', 'depth', '3'));
    router.dispatch(message('BTCUSDT', 'trade', '4'));
    router.remove(a);
    router.dispatch(message('BTCUSDT', 'trade', '5')); // nobody asks for it any more
    const b = topicOf('BTCUSDT', 'trade', 'b', log);
    router.add(b);
    router.dispatch(message('BTCUSDT', 'trade', '6'));
    router.add(topicOf('BTCUSDT', 'trade', 'c', log)); // a new subscription of the same key replaces b
    router.dispatch(message('BTCUSDT', 'trade', '7'));
    expect(log).toEqual(['a:1', 'a:2', 'depth:3', 'a:4', 'b:6', 'c:7']);
    expect(issues).toEqual([]);
  });

  it('tells kline intervals apart message by message, prefers the echoed id and falls back to symbolName', () => {
    const { log, router } = setup();
    router.add(topicOf('BTCUSDT', 'kline_1m', '1m', log));
    router.add(topicOf('BTCUSDT', 'kline_5m', '5m', log));
    const byId = topicOf('ETHUSDT', 'trade', 'eth', log);
    router.add(byId);
    router.setId(byId, '42');
    const kline = (record: string, klineType: string) => message('BTCUSDT', 'kline', record, { params: { klineType } });
    router.dispatch(kline('1', '1m'));
    router.dispatch(kline('2', '5m'));
    router.dispatch(kline('3', '5m'));
    router.dispatch(kline('4', '1m'));
    router.dispatch(message('BTCUSDT', 'kline', '5', { params: { klineType: '1m' }, id: '42' }));
    router.dispatch(message('BTC-USDT', 'kline', '6', { symbolName: 'BTCUSDT', params: { klineType: '5m' } }));
    router.dispatch(kline('7', '5m'));
    expect(log).toEqual(['1m:1', '5m:2', '5m:3', '1m:4', 'eth:5', '5m:6', '5m:7']);
  });

  it('handles each message of a batch and reports what is not a message object, once per frame', () => {
    const { log, issues, router } = setup();
    router.add(topicOf('BTCUSDT', 'trade', 'a', log));
    router.dispatch([message('BTCUSDT', 'trade', '1'), null, 'x', 7, { pong: 1 }, message('BTCUSDT', 'trade', '2')]);
    router.dispatch([message('BTCUSDT', 'trade', '3'), { nope: 1 }]);
    router.dispatch(null);
    expect(log).toEqual(['a:1', 'a:2', 'a:3']);
    expect(issues.map((issue) => issue.message)).toEqual([
      '3 of 6 messages of a batch frame failed to decode (paths: the first)',
      'unrecognised public stream message',
      'unrecognised public stream message',
    ]);
    expect(issues[0]!.raw).toBe('null');
  });

  it('walks a batch one level only: an array inside it is one bad message, whatever its depth (100 000)', () => {
    const { log, issues, router } = setup();
    router.add(topicOf('BTCUSDT', 'trade', 'a', log));
    const depth = 100_000;
    const nested = JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
    expect(() => router.dispatch(nested)).not.toThrow();
    expect(() => router.dispatch([message('BTCUSDT', 'trade', '1'), nested, nested])).not.toThrow();
    router.dispatch(message('BTCUSDT', 'trade', '2'));
    expect(log).toEqual(['a:1', 'a:2']);
    expect(issues.map((issue) => issue.message)).toEqual([
      'nested array in a batch frame (a batch holds message objects)',
      '2 of 3 messages of a batch frame failed to decode (paths: the first)',
    ]);
    for (const issue of issues) expect(issue.raw!.length).toBeLessThanOrEqual(301);
  });

  it('reports a deeply nested object message, an error frame holding one and a 4 MB batch of bad messages with bounded work', () => {
    const { issues, router } = setup();
    const deep = JSON.parse('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)) as unknown;
    expect(() => router.dispatch(deep)).not.toThrow();
    expect(() => router.dispatch({ code: '-1', msg: deep })).not.toThrow();
    expect(() => router.dispatch({ code: '-1', extra: deep })).not.toThrow();
    const batch = JSON.parse(`[${Array(2_000_000).fill('1').join(',')}]`) as unknown;
    const started = performance.now();
    router.dispatch(batch);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(issues.map((issue) => issue.message)).toEqual([
      'unrecognised public stream message',
      'PublicErrorFrame failed to decode: 1 error(s)',
      'public stream error frame for no live subscription: code -1',
      '2000000 of 2000000 messages of a batch frame failed to decode (paths: the first)',
    ]);
    for (const issue of issues) expect(JSON.stringify(issue.paths).length + (issue.raw ?? '').length).toBeLessThan(2048);
  });
  it('hands the record checks the frame’s prechecked parts during its dispatch only, and re-parses the text of a failed check itself', () => {
    const { log, issues, router } = setup();
    const seen: (Prechecked | undefined)[] = [];
    // Refuses a rounded id (a number), takes the exact one (text): as a record check of 64-bit ids does.
    const check: FastCheck = (u, prechecked) => (seen.push(prechecked), typeof u === 'string' ? u : FAIL);
    router.add({ ...topicOf('BTCUSDT', 'trade', 'a', log), codec: t.string, check });
    const prechecked: Prechecked = { take: () => false };
    router.dispatch(message('BTCUSDT', 'trade', 'x'), undefined, prechecked);
    router.dispatch(message('BTCUSDT', 'trade', 'y'));
    expect(seen).toEqual([prechecked, undefined]);
    const text = '{"symbol":"BTCUSDT","topic":"trade","data":[1291488620385157122]}';
    router.dispatch(JSON.parse(text), text, prechecked);
    // The exact parse (the id as text) took over; its records were checked too (no parts prechecked in it match).
    expect(log).toEqual(['a:x', 'a:y', 'a:1291488620385157122']);
    expect(issues).toEqual([]);
    router.dispatch(message('BTCUSDT', 'trade', 'z'));
    expect(seen.at(-1)).toBeUndefined();
  });
});
