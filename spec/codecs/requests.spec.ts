import {
  ClientPingCodec,
  ClientPongCodec,
  SubscriptionRequestCodec,
  cancelFrame,
  pingFrame,
  pongFrame,
  subscribeFrame,
} from '../../lib/codecs/requests';
import { assertDecodes, assertFails } from '../helpers/codecs';

describe('SubscriptionRequestCodec', () => {
  it('decodes the public stream sample', () => {
    const frame = { symbol: 'BTCUSDT', topic: 'kline_1m', event: 'sub', params: { binary: false }, id: 1 };
    assertDecodes(SubscriptionRequestCodec, frame, frame);
  });

  it('decodes the private stream sample (cancel_all, limit, text flags)', () => {
    assertDecodes(
      SubscriptionRequestCodec,
      { symbol: 'BTCUSDT', topic: 'trade', event: 'cancel_all', params: { limit: '100', binary: 'false' }, id: '2' },
      { symbol: 'BTCUSDT', topic: 'trade', event: 'cancel_all', params: { limit: '100', binary: false }, id: 2 },
    );
  });

  it('reports each bad field', () => {
    assertFails(SubscriptionRequestCodec, { symbol: 'BTCUSDT', topic: 'trade', event: 'subscribe', params: {} }, [
      ': SubscriptionRequest/event: SubscriptionEvent',
      ': SubscriptionRequest/params: SubscriptionParams/binary: BooleanFromStringOrBoolean',
      ': SubscriptionRequest/id: IntFromNumberOrString',
    ]);
  });
});

describe('subscribeFrame', () => {
  it('builds a sub frame that the codec accepts', () => {
    const frame = subscribeFrame('BTCUSDT', 'depth', false, 7);
    expect(frame).toStrictEqual({ symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 7 });
    expect(SubscriptionRequestCodec.is(frame)).toBe(true);
  });

  it('adds the limit param when given', () => {
    expect(subscribeFrame('BTCUSDT', 'trade', true, 1, { limit: '100' }).params).toStrictEqual({ binary: true, limit: '100' });
  });
});

describe('cancelFrame', () => {
  it('builds a cancel frame, or cancel_all when asked', () => {
    expect(cancelFrame('BTCUSDT', 'trade', false, 8)).toStrictEqual({
      symbol: 'BTCUSDT',
      topic: 'trade',
      event: 'cancel',
      params: { binary: false },
      id: 8,
    });
    expect(cancelFrame('BTCUSDT', 'trade', false, 9, 'cancel_all').event).toBe('cancel_all');
  });
});

describe('ClientPingCodec', () => {
  it('decodes a ping and rejects a non-integer', () => {
    assertDecodes(ClientPingCodec, pingFrame(1626249138535), { ping: 1626249138535 });
    assertFails(ClientPingCodec, { ping: 'soon' }, [': ClientPing/ping: IntFromNumberOrString']);
  });
});

describe('ClientPongCodec', () => {
  it('decodes a pong and rejects a missing one', () => {
    assertDecodes(ClientPongCodec, pongFrame(1626249138535), { pong: 1626249138535 });
    assertFails(ClientPongCodec, {}, [': ClientPong/pong: IntFromNumberOrString']);
  });
});
