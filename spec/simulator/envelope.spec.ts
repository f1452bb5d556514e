import { strFromU8, unzipSync } from 'fflate';
import { envelopeText, zipText, type EnvelopeInput } from '../../lib/simulator/streams/envelope';

const input: EnvelopeInput = { symbol: 'BTCUSDT', topic: 'trade', binary: false, data: [{ v: '1' }], first: true, sendTime: 1700000000000, id: '7' };

describe('envelopeText', () => {
  it('writes the public envelope as the service does: params as text, symbolName, shared false', () => {
    expect(JSON.parse(envelopeText(input))).toEqual({
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      topic: 'trade',
      params: { realtimeInterval: '24h', binary: 'false' },
      data: [{ v: '1' }],
      f: true,
      sendTime: 1700000000000,
      shared: false,
      id: '7',
    });
  });

  it('adds klineType to the params when there is one, and says binary as text', () => {
    expect(JSON.parse(envelopeText({ ...input, topic: 'kline', klineType: '1m', binary: true })).params).toEqual({
      realtimeInterval: '24h',
      binary: 'true',
      klineType: '1m',
    });
  });
});

describe('zipText', () => {
  it('zips the text in one entry named data.json', () => {
    const entries = unzipSync(zipText('{"a":1}'));
    expect(Object.keys(entries)).toEqual(['data.json']);
    expect(strFromU8(entries['data.json']!)).toBe('{"a":1}');
  });
});
