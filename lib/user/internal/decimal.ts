/**
 * Exact comparison of decimal text (`"0.0010"`, `"12"`, `"-3.5"`, `"1e-7"`), never through floats.
 * Unlike `lib/internal/decimal.ts` (non-negative only, `NaN` for bad text) this is a total order over
 * all text, which the order-independent folds of the user stream need.
 * @internal
 * @module
 */

interface Scaled {
  /** The digits as an integer. */
  readonly units: bigint;
  /** How many of those digits are after the decimal point. */
  readonly scale: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses decimal text into an exact scaled integer; `undefined` for text that is not a decimal. @internal */
export function parseDecimal(text: string): Scaled | undefined {
  const m = DECIMAL.exec(text.trim());
  if (m === null) return undefined;
  const [, sign = '', intPart = '', fracPart = '', exp = '0'] = m;
  if (intPart === '' && fracPart === '') return undefined;
  const digits = BigInt(`${intPart}${fracPart}` || '0');
  let scale = fracPart.length - Number(exp);
  let units = sign === '-' ? -digits : digits;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units, scale };
}

/**
 * Compares two decimal texts exactly: negative when `a < b`, 0 when equal in value (`"1.0"` = `"1"`),
 * positive when `a > b`. Text that is not a decimal sorts below every decimal (and equal to itself).
 * @internal
 */
export function compareDecimal(a: string, b: string): number {
  if (a === b) return 0; // the common case of the folds (an unchanged amount): no parsing
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (x === undefined || y === undefined) {
    if (x === undefined && y === undefined) return a < b ? -1 : a > b ? 1 : 0;
    return x === undefined ? -1 : 1;
  }
  const scale = Math.max(x.scale, y.scale);
  const xu = x.units * 10n ** BigInt(scale - x.scale);
  const yu = y.units * 10n ** BigInt(scale - y.scale);
  return xu < yu ? -1 : xu > yu ? 1 : 0;
}
