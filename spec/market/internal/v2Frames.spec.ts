import fc from 'fast-check';
import { IGNORED, v2Message, v2Request, v2RequestFrames } from '../../../lib/market/internal/v2Frames';

describe('v2Frames', () => {
  it('writes the documented request: topic, event, params { symbol, klineType }, no id, no binary', () => {
    expect(v2Request('sub', 'ETHUSDT', 'kline_1m', undefined, undefined)).toEqual({ topic: 'kline', event: 'sub', params: { symbol: 'ETHUSDT', klineType: '1m' } });
    expect(v2RequestFrames('MENA').cancel('BTCUSDT', 'depth', false, 7, { limit: '50' })).toEqual({
      topic: 'depth',
      event: 'cancel',
      params: { symbol: 'BTCUSDT', limit: '50', site: 'MENA' },
    });
  });

  it("reads the documented answers into V1's error-frame shape (request topic named), a cancel's answer ignored", () => {
    expect(v2Message({ topic: 'kline', event: 'sub', params: { symbol: 'BTCUSDT', klineType: '1m' }, code: '0', msg: 'Success' })).toEqual({
      code: '0',
      msg: 'Success',
      symbol: 'BTCUSDT',
      topic: 'kline_1m',
    });
    expect(v2Message({ topic: 'kline', event: 'sub', params: { symbol: 'BTCUSDT', klineType: '122m' }, code: '-100011', msg: 'Parameter error!' })).toEqual({
      code: '-100011',
      msg: 'Parameter error!',
      symbol: 'BTCUSDT',
      topic: 'kline_122m',
    });
    expect(v2Message({ topic: 'kline', event: 'cancel', params: { symbol: 'BTCUSDT', klineType: '1m' }, code: '0', msg: 'Success' })).toBe(IGNORED);
  });

  it('reads a data message (data an object) into a V1 envelope of one record', () => {
    const data = { s: 'BTCUSDT', t: 1, b: '1', bz: '2', a: '3', az: '4' };
    expect(v2Message({ topic: 'bbo', params: { symbol: 'BTCUSDT' }, data })).toMatchObject({ symbol: 'BTCUSDT', topic: 'bbo', params: {}, data: [data] });
    expect(v2Message({ topic: 'kline', params: { symbol: 'X', klineType: '5m' }, data: [{ t: 1 }] })).toMatchObject({ symbol: 'X', topic: 'kline', params: { klineType: '5m' }, data: [{ t: 1 }] });
    // no params.symbol: the record's s
    expect(v2Message({ topic: 'depth', params: {}, data: { s: 'ETHUSDT', t: 2, a: [], b: [] } })).toMatchObject({ symbol: 'ETHUSDT' });
  });

  it("keeps the V1 envelope's facts a data message carries (symbolName, f, sendTime, shared, id), nothing else", () => {
    const data = { s: 'BTCUSDT', t: 1, b: '1', bz: '2', a: '3', az: '4' };
    const facts = { symbolName: 'BTCUSDT', f: true, sendTime: 5, shared: false, id: '7' };
    expect(v2Message({ topic: 'bbo', params: { symbol: 'BTCUSDT', site: 'SG' }, event: 'sub', site: 'SG', ...facts, data })).toStrictEqual({
      symbol: 'BTCUSDT',
      topic: 'bbo',
      params: {},
      data: [data],
      ...facts,
    });
    // the same shape as the V2 frame reader's envelope: its keys in the same order
    expect(Object.keys(v2Message({ topic: 'bbo', params: { symbol: 'A' }, data, f: false }) as object)).toEqual(['symbol', 'topic', 'params', 'data', 'f']);
  });

  it('hands on anything else as it is (heartbeats, V1 frames, bare error frames), and never throws', () => {
    for (const m of [{ pong: 1 }, { code: '-10001', msg: 'Invalid JSON!' }, { symbol: 'A', topic: 'trade', data: [] }, [1, 2], 'text', null]) expect(v2Message(m)).toBe(m);
    fc.assert(fc.property(fc.jsonValue(), (v) => void v2Message(v)));
    fc.assert(fc.property(fc.record({ topic: fc.string(), params: fc.dictionary(fc.string(), fc.jsonValue()), data: fc.jsonValue() }), (v) => void v2Message(v)));
  });
});
