import { KlineEnvelopeCodec, KlineRecordCodec } from '../../lib/codecs/kline';
import { assertDecodes, assertFails } from '../helpers/codecs';

const record = { t: 1626249120000, s: 'BTCUSDT', sn: 'BTCUSDT', c: '32902.6', h: '32903.1', l: '32900', o: '32900.4', v: '1.0231' } as const;

describe('KlineRecordCodec', () => {
  it('decodes a record of the SPEC table', () => {
    assertDecodes(KlineRecordCodec, record, record);
  });

  it('tolerates a text time, number prices and missing s/sn', () => {
    assertDecodes(
      KlineRecordCodec,
      { t: '1626249120000', c: 32902.6, h: '32903.1', l: '32900', o: '32900.4', v: '1.0231' },
      { t: 1626249120000, c: '32902.6', h: '32903.1', l: '32900', o: '32900.4', v: '1.0231' },
    );
  });

  it('reports each missing price', () => {
    assertFails(KlineRecordCodec, { t: 1, o: '1', v: '1' }, [
      ': KlineRecord/h: DecimalString',
      ': KlineRecord/l: DecimalString',
      ': KlineRecord/c: DecimalString',
    ]);
  });
});

describe('KlineEnvelopeCodec', () => {
  it('decodes a kline message with its klineType', () => {
    const decoded = assertDecodes(KlineEnvelopeCodec, {
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      topic: 'kline',
      params: { realtimeInterval: '24h', klineType: '1m', binary: 'false' },
      data: [record],
      f: true,
      sendTime: 1626249138535,
      shared: false,
      id: '1',
    });
    expect(decoded.params).toStrictEqual({ realtimeInterval: '24h', klineType: '1m', binary: false });
    expect(decoded.data).toStrictEqual([record]);
  });

  it('reports a bad time with its path', () => {
    assertFails(KlineEnvelopeCodec, { symbol: 'BTCUSDT', topic: 'kline', data: [{ ...record, t: 1.5 }] }, [
      ': PublicEnvelope<KlineRecord>/data: Array<KlineRecord>/0: KlineRecord/t: IntFromNumberOrString',
    ]);
  });
});
