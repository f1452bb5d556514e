import { entryFields, type MarketEntry, pushPayload, readEntry, readPush } from '../../lib/redis/marketEntry';
import { compareIds, shardOf } from '../../lib/redis/marketKeys';
import { tradeIds, withRequestId } from '../../lib/redis/internal/tradeFrames';
import { frameRoute } from '../../lib/redis/internal/frameRoute';

describe('marketEntry', () => {
  const entries: MarketEntry[] = [
    { kind: 'message', seq: 7, receivedAt: 1700000000123, symbol: 'BTCUSDT', topic: 'kline_1m', frame: '{"symbol":"BTCUSDT","data":[{"v":"2300000000000000001","p":"0.10"}]}' },
    { kind: 'epoch', seq: 8, receivedAt: 1700000000124, epoch: 3, open: false },
    { kind: 'gap', seq: 9, receivedAt: 1700000000125, reason: 'redis', fromMs: 1, toMs: 2, dropped: 40, symbol: undefined },
    { kind: 'gap', seq: 10, receivedAt: 1700000000126, reason: 'venue', fromMs: 3, toMs: 3, dropped: 0, symbol: 'ETHBTC' },
    { kind: 'start', seq: 1, receivedAt: 1700000000127 },
    { kind: 'message', seq: 11, receivedAt: 1700000000128, symbol: 'ETHBTC', topic: 'trade', frame: '{"data":[]}', prev: '1700000000120-3' },
    { kind: 'message', seq: 12, receivedAt: 1700000000129, symbol: 'ETHBTC', topic: 'trade', frame: '{"data":[]}', prev: '0-0' },
  ];

  it('reads back what it writes, each kind', () => {
    for (const e of entries) expect(readEntry(entryFields(e))).toEqual(e);
  });

  it('refuses what is not an entry (never throws)', () => {
    expect(readEntry([])).toBeUndefined();
    expect(readEntry(['n', '1', 'r', '2', 's', 'X'])).toBeUndefined(); // data without topic and frame
    expect(readEntry(['k', 'epoch', 'n', '1', 'r', '2', 'e', 'x', 'o', '1'])).toBeUndefined();
    expect(readEntry(['k', 'other', 'n', '1', 'r', '2'])).toBeUndefined();
    expect(readEntry(['n', '-1', 'r', '2', 's', 'A', 'c', 'trade', 'f', '{}'])).toBeUndefined();
    expect(readEntry([1, 2, 3] as unknown[])).toBeUndefined();
    expect(readEntry(['n', '1', 'r', '2', 's', 'A', 'c', 'trade', 'p', 'x-1', 'f', '{}'])).toBeUndefined(); // a previous id out of shape
    expect(readEntry(['n', '1', 'r', '2', 's', 'A', 'c', 'trade', 'p', '1-2-3', 'f', '{}'])).toBeUndefined();
    // a frame that is not a JSON object's text (another client's entry, a damaged one): not an entry
    expect(readEntry(['n', '1', 'r', '2', 's', 'A', 'c', 'trade', 'f', 'not json'])).toBeUndefined();
    expect(readEntry(['n', '1', 'r', '2', 's', 'A', 'c', 'trade', 'f', '{"topic":"trade"'])).toBeUndefined();
    expect(readEntry(['n', '1', 'r', '2', 's', 'A', 'c', 'trade', 'f', ''])).toBeUndefined();
    expect(readEntry(['n', '1234567890123456', 'r', '2', 's', 'A', 'c', 'trade', 'f', '{}'])).toBeUndefined(); // 16 digits: not a safe count
    expect(readEntry(['n', '', 'r', '2', 's', 'A', 'c', 'trade', 'f', '{}'])).toBeUndefined();
  });

  it('reads back each entry it publishes (its id too), whatever its text holds (bars, commas, non-ASCII)', () => {
    const odd: MarketEntry = { kind: 'message', seq: 3, receivedAt: 5, symbol: 'ÉTH|€', topic: 'trade', frame: '{"a":"x|1,2|\u0000","b":"😀"}' };
    for (const e of [...entries, odd]) expect(readPush(Buffer.from(pushPayload('1700000000123-45', entryFields(e))))).toEqual({ id: '1700000000123-45', entry: e });
  });

  it('refuses a published text that is not one (never throws): no id, lengths that do not add up', () => {
    const fields = entryFields(entries[0]!);
    const good = pushPayload('1-2', fields);
    for (const bad of ['', '|', '1-2', '1-2|', 'x-2|1|a', '1-2|1,1|a', '1-2|1|ab', '1-2|a|b', '1-2|-1|', '1-2|1234567890|x', `${good}!`, good.slice(0, -1)]) {
      expect(readPush(Buffer.from(bad))).toBeUndefined();
    }
    expect(readPush(Buffer.from('1-2||'))).toEqual({ id: '1-2', entry: undefined }); // an id, but no entry: the stream is read for it
    // Any text at all: an answer, never a throw.
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const chars = Array.from({ length: Math.floor(random() * 30) }, () => '0123456789-|,ab'[Math.floor(random() * 15)]).join('');
      expect(() => readPush(Buffer.from(chars))).not.toThrow();
    }
  });

  it('reads past fields it does not know, and takes the last of a field named twice', () => {
    expect(readEntry(['zz', 'x', 'n', '1', 'r', '2', 's', 'A', 'c', 'trade', 'f', '{}', 'q', '?'])).toEqual({ kind: 'message', seq: 1, receivedAt: 2, symbol: 'A', topic: 'trade', frame: '{}' });
    expect(readEntry(['n', '1', 'n', '3', 'r', '2', 's', 'A', 'c', 'trade', 'f', '{}'])).toMatchObject({ seq: 3 });
  });

  it('reads the smallest and largest trade id of a frame exactly (64-bit text, or numbers on the wire)', () => {
    const frame = '{"symbol":"A","topic":"trade","data":[{"v":"18446744073709551615","p":"1"},{"v":"9223372036854775808"},{"v": 99}],"f":false,"id":"7"}';
    expect(tradeIds(frame)).toEqual({ min: '99', max: '18446744073709551615' });
    expect(tradeIds('{"data":[]}')).toEqual({ min: undefined, max: undefined });
  });
});

describe('marketKeys', () => {
  it('shards symbols stably (FNV-1a)', () => {
    expect([shardOf('BTCUSDT', 4), shardOf('ETHUSDT', 4), shardOf('ETHBTC', 4)]).toEqual([shardOf('BTCUSDT', 4), shardOf('ETHUSDT', 4), shardOf('ETHBTC', 4)]);
    expect(shardOf('', 4)).toBe(0x811c9dc5 % 4);
    for (const s of ['A', 'BTCUSDT', 'X'.repeat(64)]) expect(shardOf(s, 7)).toBeLessThan(7);
  });

  it('compares stream ids numerically', () => {
    expect(compareIds('10-0', '9-5')).toBeGreaterThan(0);
    expect(compareIds('10-10', '10-9')).toBeGreaterThan(0);
    expect(compareIds('10-1', '10-1')).toBe(0);
    expect(compareIds('1700000000000-0', '999999999999-5')).toBeGreaterThan(0); // by value, not by text
    expect(compareIds('7', '7-0')).toBe(0); // a missing sequence counts as 0
    expect(compareIds('0-0', '1700000000000-0')).toBeLessThan(0);
  });
});

describe('withRequestId', () => {
  it("puts this consumer's request id in place of the gateway's, text or number", () => {
    expect(withRequestId('{"symbol":"A","data":[],"f":true,"id":"12"}', '3')).toBe('{"symbol":"A","data":[],"f":true,"id":"3"}');
    expect(withRequestId('{"symbol":"A","id":12,"data":[]}', '3')).toBe('{"symbol":"A","id":"3","data":[]}');
    expect(withRequestId('{"symbol":"A","data":[]}', '3')).toBe('{"symbol":"A","data":[]}');
  });
});

describe('frameRoute', () => {
  it('reads the symbol and request topic of a data frame, nothing else', () => {
    expect(frameRoute('{"symbol":"A","topic":"kline","params":{"klineType":"1m"},"data":[]}')).toEqual({ symbol: 'A', topic: 'kline_1m' });
    expect(frameRoute('{"symbol":"A","topic":"depth","data":[]}')).toEqual({ symbol: 'A', topic: 'depth' });
    expect(frameRoute('{"pong":1}')).toBeUndefined();
    expect(frameRoute('{"code":"-100001","desc":"Invalid request","topic":"x"}')).toBeUndefined();
    expect(frameRoute('{"topic": oops')).toBeUndefined();
    expect(frameRoute('{"symbol":"A","topic":"kline","data":[]}')).toBeUndefined();
  });

  it('reads a V2 data frame (the pair in params.symbol, else the record\'s s), never an answer or an error frame', () => {
    // the shapes of HashKey's "Public Stream (WS v2)"
    const bbo = '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"2","a":"3","az":"4"}}';
    expect(frameRoute(bbo)).toEqual({ symbol: 'BTCUSDT', topic: 'bbo' });
    expect(frameRoute('{"topic":"depth","params":{"symbol":"ETHUSDT"},"data":{"s":"ETHUSDT","t":1,"b":[["1","2"]],"a":[]}}')).toEqual({ symbol: 'ETHUSDT', topic: 'depth' });
    expect(frameRoute('{"topic":"trade","params":{"symbol":"ETHBTC"},"data":[{"v":"1","t":1,"p":"1","q":"1","m":true}]}')).toEqual({ symbol: 'ETHBTC', topic: 'trade' });
    expect(frameRoute('{"topic":"kline","params":{"symbol":"A","klineType":"5m"},"data":{"t":1,"s":"A"}}')).toEqual({ symbol: 'A', topic: 'kline_5m' });
    // the record's own pair when params has none (the whole frame parsed: its data is read)
    expect(frameRoute('{"data":{"s":"BTCUSDT","t":1},"topic":"bbo"}')).toEqual({ symbol: 'BTCUSDT', topic: 'bbo' });
    // answers and refusals carry `code`; a request echoed without data is no data message
    expect(frameRoute('{"topic":"bbo","event":"sub","params":{"symbol":"BTCUSDT"},"code":"0","msg":"Success"}')).toBeUndefined();
    expect(frameRoute('{"topic":"bbo","event":"sub","params":{"symbol":"A,B"},"code":"-100011","msg":"Parameter error!"}')).toBeUndefined();
    expect(frameRoute('{"topic":"bbo","params":{},"data":{"t":1}}')).toBeUndefined();
    expect(frameRoute('{"topic":"kline","params":{"symbol":"A"},"data":{"t":1}}')).toBeUndefined();
  });
});
