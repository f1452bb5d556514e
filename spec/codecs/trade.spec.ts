import * as E from 'fp-ts/Either';
import { TradeEnvelopeCodec, TradeRecordCodec, type TradeEnvelope } from '../../lib/codecs/trade';
import { parseJson } from '../../lib/frame/json';
import { assertDecodes, assertFails } from '../helpers/codecs';

const bhexText =
  '{"symbol":"BTCUSDT","symbolName":"BTCUSDT","topic":"trade","params":{"realtimeInterval":"24h","binary":"false"},' +
  '"data":[{"v":"929681067596857345","t":1625562619577,"p":"34924.15","q":"0.00027","m":true}],' +
  '"f":true,"sendTime":1626249138535,"shared":false,"id":"1"}';

describe('TradeRecordCodec', () => {
  it('decodes the SPEC example record', () => {
    const record = { v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true };
    assertDecodes(TradeRecordCodec, record, record);
  });

  it('tolerates a text time (as typed in the field table) and a text flag', () => {
    assertDecodes(
      TradeRecordCodec,
      { v: 42, t: '1625562619577', p: '34924.15', q: '0.00027', m: 'false' },
      { v: '42', t: 1625562619577, p: '34924.15', q: '0.00027', m: false },
    );
  });

  it('rejects a trade id that JSON.parse already rounded', () => {
    assertFails(TradeRecordCodec, { v: 929681067596857345, t: 1, p: '1', q: '1', m: true }, [
      ': TradeRecord/v: IdFromNumberOrString',
    ]);
  });

  it('reports every missing field', () => {
    assertFails(TradeRecordCodec, {}, [
      ': TradeRecord/v: IdFromNumberOrString',
      ': TradeRecord/t: IntFromNumberOrString',
      ': TradeRecord/p: DecimalString',
      ': TradeRecord/q: DecimalString',
      ': TradeRecord/m: BooleanFromStringOrBoolean',
    ]);
  });
});

describe('TradeEnvelopeCodec', () => {
  it('decodes the BHEX-like trade frame text', () => {
    const json = parseJson(bhexText);
    expect(E.isRight(json)).toBe(true);
    const decoded = assertDecodes(TradeEnvelopeCodec, E.isRight(json) ? json.right : undefined);
    expect(decoded).toStrictEqual({
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      topic: 'trade',
      params: { realtimeInterval: '24h', binary: false },
      data: [{ v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true }],
      f: true,
      sendTime: 1626249138535,
      shared: false,
      id: '1',
    });
  });

  it('keeps a bare 19-digit trade id exact when the frame went through parseJson', () => {
    const json = parseJson(bhexText.replace('"v":"929681067596857345"', '"v":929681067596857345'));
    const decoded = assertDecodes(TradeEnvelopeCodec, E.isRight(json) ? json.right : undefined);
    expect(decoded.data[0]?.v).toBe('929681067596857345');
  });

  it('reports the bad record among several', () => {
    const good = { v: '1', t: 1, p: '1', q: '1', m: true };
    assertFails(TradeEnvelopeCodec, { symbol: 'BTCUSDT', topic: 'trade', data: [good, { ...good, m: 'maybe' }, good] }, [
      ': PublicEnvelope<TradeRecord>/data: Array<TradeRecord>/1: TradeRecord/m: BooleanFromStringOrBoolean',
    ]);
  });
});

describe('TradeEnvelope (types)', () => {
  it('types ids and amounts as text and times as numbers', () => {
    const decoded: TradeEnvelope = assertDecodes(TradeEnvelopeCodec, {
      symbol: 'BTCUSDT',
      topic: 'trade',
      data: [{ v: 1, t: '2', p: 3, q: '4', m: 'true' }],
    });
    const record = decoded.data[0]!;
    const id: string = record.v;
    const time: number = record.t;
    // @ts-expect-error ids are never numbers
    const wrong: number = record.v;
    expect([id, time, wrong, record.p, record.m]).toEqual(['1', 2, '1', '3', true]);
  });
});
