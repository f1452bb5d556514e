import fc from 'fast-check';
import { getHeapSpaceStatistics } from 'node:v8';
import { ownQuotedText, ownText } from '../../lib/internal/ownText';
import { marketFrameReader, type ReadMessage } from '../../lib/market/internal/marketFrameReader';
import { parseJsonValue } from '../../lib/internal/json';
import { gcFunction } from '../bench/stats';

const gc = gcFunction();

/** Frames of `bytes` characters each, distinct and flat (as a socket's decoded text is), made by `frame(n, padding)`. */
function bigTexts(count: number, bytes: number, frame: (n: number, padding: string) => string): string[] {
  return Array.from({ length: count }, (_, n) => Buffer.from(frame(n, 'z'.repeat(bytes))).toString());
}

/** Bytes in V8's large-object space, where each text of 256 KiB lives (other tests' garbage elsewhere does not count). */
function largeObjectBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'large_object_space')!.space_used_size;
}

/** Growth of the large-object space from keeping what `take` cuts out of 64 texts of 256 KiB, once the texts are dropped. */
function retainedBy(take: (text: string) => unknown, frame: (n: number, padding: string) => string): number {
  gc!();
  gc!();
  const before = largeObjectBytes();
  let texts: string[] | undefined = bigTexts(64, 256 * 1024, frame);
  const kept = texts.map(take);
  texts = undefined;
  gc!();
  gc!();
  const growth = largeObjectBytes() - before;
  expect(kept).toHaveLength(64);
  return growth;
}

/** The 64 texts weigh 16 MiB: anything that keeps them shows it. */
const TEXTS_BYTES = 64 * 256 * 1024;

describe('ownText', () => {
  it('is always the slice', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.nat(), fc.nat(), (s, a, b) => {
        const from = Math.min(a % (s.length + 1), b % (s.length + 1));
        const to = Math.max(a % (s.length + 1), b % (s.length + 1));
        expect(ownText(s, from, to)).toBe(s.slice(from, to));
        expect(ownText(s)).toBe(s);
      }),
    );
  });

  it('of a string\'s plain content, is always the slice', () => {
    const plain = fc.string({ unit: 'binary', maxLength: 40 }).filter((x) => !/["\\\u0000-\u001f]/.test(x));
    fc.assert(
      fc.property(plain, plain, plain, (before, content, after) => {
        const s = `${before}"${content}"${after}`;
        const from = before.length + 1;
        expect(ownQuotedText(s, from, from + content.length)).toBe(content);
      }),
    );
  });

  const idFrame = (n: number, padding: string): string => `{"i":"19201534872035${String(n).padStart(5, '0')}","pad":"${padding}"}`;

  (gc === undefined ? it.skip : it)('does not keep the text it was cut from alive, where a slice does', () => {
    // The premise: a slice of 19 characters keeps its 256 KiB text (V8's sliced strings).
    expect(retainedBy((text) => text.slice(6, 25), idFrame)).toBeGreaterThan(TEXTS_BYTES / 2);
    const ids: string[] = [];
    expect(retainedBy((text) => ids.push(ownText(text, 6, 25)), idFrame)).toBeLessThan(TEXTS_BYTES / 16);
    expect(ids[7]).toBe('1920153487203500007');
    const quoted: string[] = [];
    expect(retainedBy((text) => quoted.push(ownQuotedText(text, 6, 25)), idFrame)).toBeLessThan(TEXTS_BYTES / 16);
    expect(quoted[7]).toBe('1920153487203500007');
  });

  (gc === undefined ? it.skip : it)('a trade read by the market frame reader does not keep its frame alive', () => {
    const read = marketFrameReader()!;
    const tradeFrame = (n: number, padding: string): string =>
      `{"symbol":"BTCUSDT","topic":"trade","params":{"binary":"false"},"data":[{"v":"14473354053631${String(n).padStart(5, '0')}","t":"1731300000000",` +
      `"p":"76321.12345678901","q":"0.000123","m":true,"note":"${padding.slice(0, 20)}"}],"site":"${padding}"}`;
    const records: unknown[] = [];
    const growth = retainedBy((text) => records.push((read(text) as ReadMessage).envelope.data[0]), tradeFrame);
    expect(growth).toBeLessThan(TEXTS_BYTES / 16);
    expect(records[3]).toStrictEqual({ v: '1447335405363100003', t: 1_731_300_000_000, p: '76321.12345678901', q: '0.000123', m: true, note: 'z'.repeat(20) });
  });

  (gc === undefined ? it.skip : it)("a book's levels read by the levels scanner do not keep their frame alive", () => {
    const level = (k: number): string => `["76321.${String(k).padStart(11, '0')}","0.00012345678901"]`;
    const depthFrame = (n: number, padding: string): string =>
      `{"symbol":"BTCUSDT","topic":"depth","data":[{"t":${n},"a":[${Array.from({ length: 16 }, (_, k) => level(k)).join(',')}]}],"site":"${padding}"}`;
    const books: unknown[] = [];
    const growth = retainedBy((text) => books.push((parseJsonValue(text) as { data: [{ a: unknown }] }).data[0].a), depthFrame);
    expect(growth).toBeLessThan(TEXTS_BYTES / 16);
    expect((books[2] as string[][])[5]).toStrictEqual(['76321.00000000005', '0.00012345678901']);
  });
});
