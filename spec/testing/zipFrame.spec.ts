import * as E from 'fp-ts/Either';
import { strFromU8, unzipSync } from 'fflate';
import { zipFrame } from '../../lib/testing/zipFrame';
import { decodeFrame } from '../../lib/frame/decodeFrame';

describe('zipFrame', () => {
  it('zips a message as JSON text in one entry named data.json', () => {
    const entries = unzipSync(zipFrame({ topic: 'depth', data: [1] }));
    expect(Object.keys(entries)).toEqual(['data.json']);
    expect(strFromU8(entries['data.json']!)).toBe('{"topic":"depth","data":[1]}');
  });

  it('takes a string as the text itself, not as a JSON string', () => {
    expect(strFromU8(unzipSync(zipFrame('{"raw":12345678901234567890}'))['data.json']!)).toBe('{"raw":12345678901234567890}');
  });

  it('gives a frame the library decodes to the message', () => {
    const decoded = decodeFrame(zipFrame({ id: '1', topic: 'trade', data: [] }));
    expect(E.isRight(decoded) && decoded.right).toEqual({ id: '1', topic: 'trade', data: [] });
  });
});
