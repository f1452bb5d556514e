// Data path, market side (notes/architecture.md, "The data path"): step 3 for an incremental book's delta, its text read straight into a checked depth record.
import { DepthRecordCodec } from '../../codecs/depth';
import { FAIL } from '../../codecs/fastCheck';
import { type ReadPosition, type Reader, structReader } from '../../codecs/structReader';
import { scanLevels } from '../../frame/levelsJson';

/**
 * The reader of a depth record (`DepthRecordCodec`) from compact JSON text, for the market frame reader's
 * `diffMergedDepth` messages: a delta is a few levels, and `JSON.parse` followed by the record's check cost more
 * than the book's update itself. It is the record's `structReader` (compiled from the codec's declaration: every
 * other declared field read as a JSON string or primitive through the field's own check, a time's text becoming its
 * number, an id's number its text; an undeclared field with a primitive value kept, as the check keeps it), with
 * its level arrays (`a`, `b`: arrays of `DepthLevelCodec` tuples, which `structReader` does not read) read as
 * `[["price","quantity"],…]` by the full books' levels scanner (`scanLevels`), both in the common form `digits[.digits]`
 * (decimal text, as the levels' check requires).
 *
 * What it reads, it reads exactly as the exact parse (`parseJsonValue`, long integers quoted) followed by the
 * record's check: the same value, field by field. Anything else (whitespace, an escape, a control character, a
 * level of another form, a nested value in an undeclared field, a key `__proto__`, a value a check refuses, a
 * required field missing) is {@link FAIL}, and the frame takes the general path.
 * `spec/market/internal/depthRecordReader.spec.ts` proves it on generated and mutated texts.
 *
 * @internal
 * @module
 */

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The levels `[["p","q"],…]` at `p.i` (its `[`), each price and quantity decimal text `digits[.digits]`. */
function readLevels(s: string, p: ReadPosition): [string, string][] | typeof FAIL {
  const i = p.i;
  if (s.charCodeAt(i) !== OPEN_BRACKET) return FAIL;
  const out: [string, string][] = [];
  if (s.charCodeAt(i + 1) === CLOSE_BRACKET) {
    p.i = i + 2;
    return out;
  }
  const end = scanLevels(s, i, out);
  if (end < 0) return FAIL;
  p.i = end;
  return out;
}

/** The one reader, made on first use (`null`: code cannot be compiled here). */
let shared: Reader | null | undefined;

/** The reader of {@link DepthRecordCodec}'s records (see the module doc); `undefined` where code cannot be compiled. @internal */
export function depthRecordReader(): Reader | undefined {
  if (shared === undefined) shared = structReader(DepthRecordCodec, { fieldReaders: { a: readLevels, b: readLevels } }) ?? null;
  return shared ?? undefined;
}
