import { RealtimesEnvelopeCodec, RealtimesRecordCodec } from '../../lib/codecs/realtimes';
import { assertDecodes, assertFails } from '../helpers/codecs';

const record = {
  t: 1626249138535,
  s: 'BTCUSDT',
  sn: 'BTCUSDT',
  c: '32902.6',
  h: '33500',
  l: '32100',
  o: '32500',
  v: '1520.3',
  qv: '49988321.1',
  m: '0.0124',
  e: 301,
} as const;

describe('RealtimesRecordCodec', () => {
  it('decodes a record of the SPEC table, the exchange id as text', () => {
    assertDecodes(RealtimesRecordCodec, record, { ...record, e: '301' });
  });

  it('needs only t and the prices and volume', () => {
    const minimal = { t: 1, c: '1', h: '1', l: '1', o: '1', v: '0' };
    assertDecodes(RealtimesRecordCodec, minimal, minimal);
  });

  it('reports a bad optional quote volume', () => {
    assertFails(RealtimesRecordCodec, { ...record, qv: 'lots' }, [': RealtimesRecord/qv: DecimalString']);
  });
});

describe('RealtimesEnvelopeCodec', () => {
  it('decodes a realtimes message', () => {
    const decoded = assertDecodes(RealtimesEnvelopeCodec, {
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      topic: 'realtimes',
      params: { realtimeInterval: '24h', binary: 'false' },
      data: [record],
      f: false,
      sendTime: 1626249138535,
      shared: false,
      id: '2',
    });
    expect(decoded.data[0]?.e).toBe('301');
  });

  it('reports a missing close price', () => {
    const { c: _c, ...noClose } = record;
    assertFails(RealtimesEnvelopeCodec, { symbol: 'BTCUSDT', topic: 'realtimes', data: [noClose] }, [
      ': PublicEnvelope<RealtimesRecord>/data: Array<RealtimesRecord>/0: RealtimesRecord/c: DecimalString',
    ]);
  });
});
