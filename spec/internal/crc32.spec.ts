import fc from 'fast-check';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32 } from '../../lib/internal/crc32';

describe('crc32', () => {
  it('gives the check value of the standard (CRC-32/ISO-HDLC: "123456789" → cbf43926) and 0 for nothing', () => {
    expect(crc32(Buffer.from('123456789')).toString(16)).toBe('cbf43926');
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('equals node:zlib crc32 on any bytes, any length (the eight-byte steps and the tail), any view offset', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(7), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        expect(crc32(view)).toBe(zlibCrc32(view));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals node:zlib crc32 on a large input with every byte value', () => {
    const bytes = new Uint8Array(70_003);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + (i >>> 8)) & 0xff;
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });
});
