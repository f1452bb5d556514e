import * as E from 'fp-ts/Either';
import { strFromU8, unzipSync } from 'fflate';
import { DepthEnvelopeCodec } from '../../lib/codecs/depth';
import { KlineEnvelopeCodec } from '../../lib/codecs/kline';
import { PublicErrorFrameCodec } from '../../lib/codecs/publicErrorFrame';
import { RealtimesEnvelopeCodec } from '../../lib/codecs/realtimes';
import { TradeEnvelopeCodec } from '../../lib/codecs/trade';
import {
  depthEnvelope,
  depthRecord,
  klineEnvelope,
  klineRecord,
  realtimesEnvelope,
  realtimesRecord,
  subscriptionError,
  tradeEnvelope,
  tradeRecord,
} from '../../lib/testing/publicMessages';
import { zipFrame } from '../../lib/testing/zipFrame';

/** Sends `value` over the wire (JSON) and decodes it: builders must produce what the codecs read back unchanged. */
const roundTrip = (codec: { decode(u: unknown): E.Either<unknown, unknown> }, value: unknown) =>
  codec.decode(JSON.parse(JSON.stringify(value)));

describe('public message builders', () => {
  it('tradeEnvelope: defaults and overrides decode to themselves; ids stay text', () => {
    const env = tradeEnvelope([tradeRecord({ v: '929681067596857345' }), tradeRecord({ v: '2', m: true })], {
      symbol: 'ETHUSDT',
      first: true,
      sendTime: 5,
      id: '7',
    });
    expect(env).toMatchObject({ symbol: 'ETHUSDT', symbolName: 'ETHUSDT', topic: 'trade', f: true, sendTime: 5, id: '7' });
    expect(env.data[0].v).toBe('929681067596857345');
    expect(roundTrip(TradeEnvelopeCodec, env)).toEqual(E.right(env));
    expect(roundTrip(TradeEnvelopeCodec, tradeEnvelope())).toEqual(E.right(tradeEnvelope()));
  });

  it('depthEnvelope, klineEnvelope, realtimesEnvelope decode to themselves', () => {
    const depth = depthEnvelope(depthRecord({ b: [['99', '2']], a: [['101', '1'], ['102', '5']] }));
    expect(roundTrip(DepthEnvelopeCodec, depth)).toEqual(E.right(depth));
    const kline = klineEnvelope(klineRecord({ t: 60_000, c: '104' }), { interval: '5m' });
    expect(kline.params).toEqual({ realtimeInterval: '24h', binary: false, klineType: '5m' });
    expect(kline.topic).toBe('kline');
    expect(roundTrip(KlineEnvelopeCodec, kline)).toEqual(E.right(kline));
    const ticker = realtimesEnvelope(realtimesRecord({ c: '101' }));
    expect(roundTrip(RealtimesEnvelopeCodec, ticker)).toEqual(E.right(ticker));
  });

  it('subscriptionError: the service error frame', () => {
    const frame = subscriptionError({ symbol: 'NOPE', id: '3' });
    expect(frame).toEqual({ code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade', id: '3' });
    expect(roundTrip(PublicErrorFrameCodec, frame)).toEqual(E.right(frame));
  });

  it('zipFrame: one data.json entry holding the JSON text', () => {
    const env = depthEnvelope();
    expect(JSON.parse(strFromU8(unzipSync(zipFrame(env))['data.json']))).toEqual(env);
    expect(strFromU8(unzipSync(zipFrame('raw'))['data.json'])).toBe('raw');
  });
});
