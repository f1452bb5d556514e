import { execFile } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { ownQuotedText, ownText } from '../../lib/internal/ownText';

/** What `spec/helpers/textRetention.ts` measures in a fresh process (heap growth in bytes; see there). */
interface Retention {
  readonly textsBytes: number;
  readonly slice: number;
  readonly ownText: number;
  readonly ownQuotedText: number;
  readonly trades: number;
  readonly levels: number;
  readonly samples: { readonly ownText: string; readonly ownQuotedText: string; readonly trade: unknown; readonly level: unknown };
}

/** Runs the measurement in its own process: a jest worker's heap holds other test files' garbage, freed at any time. */
function measureRetention(): Promise<Retention> {
  const script = join(__dirname, '..', 'helpers', 'textRetention.ts');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '-r', 'ts-node/register/transpile-only', script], { timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as Retention),
    );
  });
}

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

  it("of a string's plain content, is always the slice", () => {
    const plain = fc.string({ unit: 'binary', maxLength: 40 }).filter((x) => !/["\\\u0000-\u001f]/.test(x));
    fc.assert(
      fc.property(plain, plain, plain, (before, content, after) => {
        const s = `${before}"${content}"${after}`;
        const from = before.length + 1;
        expect(ownQuotedText(s, from, from + content.length)).toBe(content);
      }),
    );
  });

  it('does not keep the frame it was cut from alive, where a slice does; nor do the records and levels read from frames', async () => {
    const r = await measureRetention();
    // The premise: a slice of 19 characters keeps its 256 KiB text (V8's sliced strings): 64 of them keep 16 MiB.
    expect(r.slice).toBeGreaterThan(r.textsBytes / 2);
    const small = r.textsBytes / 16;
    expect({ ownText: r.ownText < small, ownQuotedText: r.ownQuotedText < small, trades: r.trades < small, levels: r.levels < small }).toEqual({
      ownText: true,
      ownQuotedText: true,
      trades: true,
      levels: true,
    });
    expect(r.samples).toEqual({
      ownText: '1920153487203500007',
      ownQuotedText: '1920153487203500007',
      trade: { v: '1447335405363100003', t: 1_731_300_000_000, p: '76321.12345678901', q: '0.000123', m: true, note: 'z'.repeat(20) },
      level: ['76321.00000000005', '0.00012345678901'],
    });
  }, 60_000);
});
