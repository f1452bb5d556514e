import * as t from 'io-ts';
import { EnvelopeParamsCodec, PublicEnvelopeCodec } from '../../lib/codecs/envelope';
import { TradeRecordCodec } from '../../lib/codecs/trade';
import { assertDecodes, assertFails } from '../helpers/codecs';

const TradeEnvelope = PublicEnvelopeCodec(TradeRecordCodec);

const bhexTrade = {
  symbol: 'BTCUSDT',
  symbolName: 'BTCUSDT',
  topic: 'trade',
  params: { realtimeInterval: '24h', binary: 'false' },
  data: [{ v: '929681067596857345', t: 1625562619577, p: '34924.15' as const, q: '0.00027' as const, m: true }],
  f: true,
  sendTime: 1626249138535,
  shared: false,
  id: '1',
};

describe('PublicEnvelopeCodec', () => {
  it('is named after its record codec', () => {
    expect(TradeEnvelope.name).toBe('PublicEnvelope<TradeRecord>');
    expect(PublicEnvelopeCodec(t.unknown, 'Anything').name).toBe('Anything');
  });

  it('decodes a BHEX-like trade message', () => {
    assertDecodes(TradeEnvelope, bhexTrade, { ...bhexTrade, params: { realtimeInterval: '24h', binary: false } });
  });

  it('needs only symbol, topic and data', () => {
    const minimal = { symbol: 'BTCUSDT', topic: 'trade', data: [] };
    assertDecodes(TradeEnvelope, minimal, minimal);
  });

  it('tolerates text flags, a numeric id, text times and extra fields', () => {
    const decoded = assertDecodes(TradeEnvelope, {
      ...bhexTrade,
      f: 'false',
      shared: 'false',
      sendTime: '1626249138535',
      id: 12,
      extra: { anything: 1 },
    });
    expect(decoded).toMatchObject({ f: false, shared: false, sendTime: 1626249138535, id: '12' });
  });

  it('leaves the input untouched', () => {
    const input = { ...bhexTrade, id: 12 };
    assertDecodes(TradeEnvelope, input);
    expect(input.id).toBe(12);
  });

  it('reports missing routing fields and a bad record with full paths', () => {
    assertFails(TradeEnvelope, { topic: 'trade', data: [{ v: '1', t: 1, p: 'x', q: '1', m: true }] }, [
      ': PublicEnvelope<TradeRecord>/symbol: string',
      ': PublicEnvelope<TradeRecord>/data: Array<TradeRecord>/0: TradeRecord/p: DecimalString',
    ]);
  });

  it('reports a data field that is not an array, and a non-object', () => {
    assertFails(TradeEnvelope, { symbol: 'BTCUSDT', topic: 'trade', data: {} }, [
      ': PublicEnvelope<TradeRecord>/data: Array<TradeRecord>',
    ]);
    assertFails(TradeEnvelope, [bhexTrade], [': PublicEnvelope<TradeRecord>']);
    assertFails(TradeEnvelope, null, [': PublicEnvelope<TradeRecord>']);
  });

  it('reports bad optional fields when present (null is not absent)', () => {
    assertFails(TradeEnvelope, { ...bhexTrade, f: 'yes', sendTime: null }, [
      ': PublicEnvelope<TradeRecord>/f: BooleanFromStringOrBoolean',
      ': PublicEnvelope<TradeRecord>/sendTime: IntFromNumberOrString',
    ]);
  });
});

describe('EnvelopeParamsCodec', () => {
  it('decodes kline params', () => {
    assertDecodes(
      EnvelopeParamsCodec,
      { realtimeInterval: '24h', klineType: '1m', binary: 'true' },
      { realtimeInterval: '24h', klineType: '1m', binary: true },
    );
  });

  it('reports a bad klineType', () => {
    assertFails(EnvelopeParamsCodec, { klineType: 1 }, [': EnvelopeParams/klineType: string']);
  });
});
