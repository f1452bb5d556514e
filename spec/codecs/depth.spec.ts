import { DepthEnvelopeCodec, DepthLevelCodec, DepthRecordCodec, type DepthLevel } from '../../lib/codecs/depth';
import { assertDecodes, assertFails } from '../helpers/codecs';

const record = {
  e: 301,
  s: 'BTCUSDT',
  t: 1626249138535,
  v: '6583_18',
  o: 0,
  a: [
    ['34924.15', '0.5'],
    ['34925', '1.2'],
  ] as DepthLevel[],
  b: [['34924.1', '0.00027']] as DepthLevel[],
};

describe('DepthLevelCodec', () => {
  it('decodes a [price, quantity] pair and turns numbers into text', () => {
    assertDecodes(DepthLevelCodec, ['34924.15', '0.5'], ['34924.15', '0.5']);
    assertDecodes(DepthLevelCodec, [34924.15, 0.5], ['34924.15', '0.5']);
  });

  it('drops extra elements and reports a missing quantity', () => {
    assertDecodes(DepthLevelCodec, ['1', '2', '3'], ['1', '2']);
    assertFails(DepthLevelCodec, ['1'], [': DepthLevel/1: DecimalString']);
  });
});

describe('DepthRecordCodec', () => {
  it('decodes a record of the SPEC table, ignore fields as text', () => {
    assertDecodes(DepthRecordCodec, record, { ...record, e: '301', o: '0' });
  });

  it('accepts empty bids and no ignore fields', () => {
    const minimal = { t: 1, a: [['1', '1']] as DepthLevel[], b: [] };
    assertDecodes(DepthRecordCodec, minimal, minimal);
  });

  it('reports a bad level with its index', () => {
    assertFails(DepthRecordCodec, { ...record, a: [['1', '1'], ['x', '1']], b: 'none' }, [
      ': DepthRecord/a: Array<DepthLevel>/1: DepthLevel/0: DecimalString',
      ': DepthRecord/b: Array<DepthLevel>',
    ]);
  });
});

describe('DepthEnvelopeCodec', () => {
  it('decodes a depth message', () => {
    const decoded = assertDecodes(DepthEnvelopeCodec, {
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      topic: 'depth',
      params: { realtimeInterval: '24h', binary: 'false' },
      data: [record],
      f: true,
      sendTime: 1626249138535,
      shared: false,
      id: '3',
    });
    expect(decoded.data[0]?.a[1]).toStrictEqual(['34925', '1.2']);
  });

  it('reports a missing time with its path', () => {
    const { t: _t, ...noTime } = record;
    assertFails(DepthEnvelopeCodec, { symbol: 'BTCUSDT', topic: 'depth', data: [noTime] }, [
      ': PublicEnvelope<DepthRecord>/data: Array<DepthRecord>/0: DepthRecord/t: IntFromNumberOrString',
    ]);
  });
});
