import * as t from 'io-ts';
import { FAIL } from '../../../lib/codecs/fastCheck';
import { KlineRecordCodec } from '../../../lib/codecs/kline';
import { TradeRecordCodec } from '../../../lib/codecs/trade';
import type { DecodeError } from '../../../lib/errors';
import { marketFrameReader, ReadMessage } from '../../../lib/market/internal/marketFrameReader';
import { type RoutedTopic, TopicRouter } from '../../../lib/market/internal/topicRouter';
import { realFrame } from '../../bench/realFrames';

// The reader against the general path on generated frames: spec/codecs/structReader.spec.ts.

const read = marketFrameReader()!;

/** A routed topic decoding with `codec`, recording the records it got. */
function topicOf(topic: string, codec: t.Decoder<unknown, unknown> & { name: string }, got: unknown[][]): RoutedTopic {
  return {
    symbol: 'BTCUSDT',
    topic,
    codec,
    check: undefined,
    deliver: (_envelope, records) => got.push([...records]),
  };
}

describe('marketFrameReader', () => {
  it('reads a trade and a candle frame into a checked envelope with the record codec of its topic', () => {
    const trade = read(realFrame('trade', 3).toString());
    expect(trade).toBeInstanceOf(ReadMessage);
    expect((trade as ReadMessage).codec).toBe(TradeRecordCodec);
    expect((trade as ReadMessage).envelope).toMatchObject({ symbol: 'BTCUSDT', topic: 'trade', f: false, sendTime: 1_731_300_000_003 });
    expect((trade as ReadMessage).envelope.data).toStrictEqual([{ v: '1447335405363150852', t: 1_731_300_000_003, p: '76321.3', q: '0.000103', m: false }]);
    const kline = read(realFrame('kline', 3).toString()) as ReadMessage;
    expect(kline.codec).toBe(KlineRecordCodec);
    expect(kline.envelope.params?.klineType).toBe('1m');
  });

  it('leaves a book, an unknown topic and a record its check refuses to the general path', () => {
    expect(read(realFrame('depth', 1).toString())).toBe(FAIL);
    expect(read('{"symbol":"BTCUSDT","topic":"index","data":[{"t":1}]}')).toBe(FAIL);
    expect(read('{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"1","t":1,"p":"x","q":"1","m":true}]}')).toBe(FAIL);
    // the topic that chose the records' reader is the one the envelope ends with (a duplicate key: the last wins)
    expect(read('{"symbol":"BTCUSDT","topic":"trade","data":[],"topic":"realtimes"}')).toBe(FAIL);
    expect(read('{"symbol":"BTCUSDT","topic":"trade","data":[],"topic":"trades"}')).toBe(FAIL);
  });

  it('the router delivers a read message as it is, and parses it again for a subscription with another codec', () => {
    const issues: DecodeError[] = [];
    const router = new TopicRouter((issue) => issues.push(issue));
    const got: unknown[][] = [];
    router.add(topicOf('trade', TradeRecordCodec, got));
    const first = read(realFrame('trade', 1).toString()) as ReadMessage;
    router.dispatch(first);
    expect(got[0]![0]).toBe(first.envelope.data[0]); // the read record itself

    const raw: unknown[][] = [];
    const other = new TopicRouter((issue) => issues.push(issue));
    other.add(topicOf('trade', t.unknown, raw)); // decodes nothing: gets the records as parsed
    other.dispatch(read(realFrame('trade', 2).toString()));
    expect(raw).toEqual([[{ v: '1447335405363150851', t: '1731300000002', p: '76321.2', q: '0.000102', m: true }]]);
    expect(issues).toEqual([]);
  });
});
