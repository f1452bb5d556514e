import { PublicErrorFrameCodec } from '../../lib/codecs/publicErrorFrame';
import { assertDecodes, assertFails } from '../helpers/codecs';

describe('PublicErrorFrameCodec', () => {
  it('decodes the simulator error frame (code as text, desc)', () => {
    assertDecodes(
      PublicErrorFrameCodec,
      { id: 3, code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade' },
      { id: '3', code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade' },
    );
  });

  it('decodes a numeric code with msg only', () => {
    assertDecodes(PublicErrorFrameCodec, { code: -1, msg: 'bad' }, { code: -1, msg: 'bad' });
  });

  it('does not match a data message', () => {
    assertFails(PublicErrorFrameCodec, { symbol: 'BTCUSDT', topic: 'trade', data: [] }, [
      ': PublicErrorFrame/code: ErrorCode/0: number',
      ': PublicErrorFrame/code: ErrorCode/1: string',
    ]);
  });
});
