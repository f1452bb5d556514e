import * as E from 'fp-ts/Either';
import { ServerPingCodec } from '../../lib/codecs/heartbeat';
import { decodePrivateFrame } from '../../lib/codecs/privateEvents';
import { executionReport, outboundAccountInfo, privateFrame, serverPing, ticketInfo } from '../../lib/testing/privateMessages';

describe('private message builders', () => {
  it('privateFrame of executionReport, outboundAccountInfo and ticketInfo decodes to the same events', () => {
    const frame = privateFrame(
      executionReport({ i: '1900000000000000001', X: 'FILLED', z: '1', Z: '100', E: 20, U: 20 }),
      outboundAccountInfo({ E: 20, B: [{ a: 'BTC', f: '1', l: '0' }] }),
      ticketInfo({ T: '1950000000000000001', o: '1900000000000000001', E: 20 }),
    );
    expect(decodePrivateFrame(JSON.parse(JSON.stringify(frame)))).toEqual(frame.map((e) => E.right(e)));
  });

  it('defaults decode too, and ids are text', () => {
    const frame = privateFrame(executionReport(), outboundAccountInfo(), ticketInfo());
    expect(decodePrivateFrame(JSON.parse(JSON.stringify(frame)))).toEqual(frame.map((e) => E.right(e)));
    expect([executionReport().i, ticketInfo().T, ticketInfo().o]).toEqual(['1', '1', '1']);
  });

  it('serverPing', () => {
    expect(serverPing(5)).toEqual({ ping: 5, channelId: 'test-channel' });
    expect(ServerPingCodec.decode(serverPing(5, 'c1'))).toEqual(E.right({ ping: 5, channelId: 'c1' }));
  });
});
