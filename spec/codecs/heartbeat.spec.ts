import { PrivatePongCodec, PublicPongCodec, ServerPingCodec } from '../../lib/codecs/heartbeat';
import { assertDecodes, assertFails } from '../helpers/codecs';

describe('PublicPongCodec', () => {
  it('decodes a pong with the server time', () => {
    assertDecodes(PublicPongCodec, { pong: 1626249138535 }, { pong: 1626249138535 });
    assertDecodes(PublicPongCodec, { pong: '1626249138535' }, { pong: 1626249138535 });
  });

  it('rejects a frame without pong', () => {
    assertFails(PublicPongCodec, { ping: 1 }, [': PublicPong/pong: IntFromNumberOrString']);
  });
});

describe('PrivatePongCodec', () => {
  it('decodes a pong with its channel id', () => {
    assertDecodes(
      PrivatePongCodec,
      { pong: 1626249138535, channelId: '0242acfffe110002-00000001-000074f2-e2a1a6d6f0c86b51-65a6e1ff' },
      { pong: 1626249138535, channelId: '0242acfffe110002-00000001-000074f2-e2a1a6d6f0c86b51-65a6e1ff' },
    );
  });

  it('rejects a public pong (no channelId)', () => {
    assertFails(PrivatePongCodec, { pong: 1 }, [': PrivatePong/channelId: IdFromNumberOrString']);
  });
});

describe('ServerPingCodec', () => {
  it('decodes a server ping', () => {
    assertDecodes(ServerPingCodec, { ping: 1626249138535, channelId: 'a1' }, { ping: 1626249138535, channelId: 'a1' });
  });

  it('rejects a ping with a fractional time', () => {
    assertFails(ServerPingCodec, { ping: 1.5, channelId: 'a1' }, [': ServerPing/ping: IntFromNumberOrString']);
  });
});
