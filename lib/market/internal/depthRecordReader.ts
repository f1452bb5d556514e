// Data path, market side (notes/architecture.md, "The data path"): step 3 for an incremental book's delta, its text read straight into a checked depth record.
import * as t from 'io-ts';
import { DepthLevelCodec, DepthRecordCodec } from '../../codecs/depth';
import { FAIL, type FastCheck, fastCheckOf } from '../../codecs/fastCheck';
import { fieldsOf } from '../../codecs/struct';
import { plainStringEnd, type ReadPosition, type Reader, readPrimitive } from '../../codecs/structReader';
import { quotedDecimalEnd } from '../../decimal/grammar';
import { ownQuotedText, ownText } from '../../internal/ownText';

/**
 * The reader of a depth record (`DepthRecordCodec`) from compact JSON text, for the market frame reader's
 * `diffMergedDepth` messages: a delta is a few levels, and `JSON.parse` followed by the record's check cost more
 * than the book's update itself. The fields come from the codec's declaration: its level arrays (`a`, `b`: arrays of
 * `DepthLevelCodec`, which `structReader` does not read) are read as `[["price","quantity"],…]` with both in the
 * common form `digits[.digits]` (decimal text, as the levels' check requires); every other declared field is read
 * as a JSON string or primitive and goes through the field's own check (a time's text becomes its number, an id's
 * number its text); an undeclared field with a primitive value is kept, as the check keeps it.
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

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The levels `[["p","q"],…]` at `p.i` (its `[`), each price and quantity decimal text `digits[.digits]`. */
function readLevels(s: string, p: ReadPosition): [string, string][] | typeof FAIL {
  let i = p.i;
  if (s.charCodeAt(i) !== OPEN_BRACKET) return FAIL;
  const out: [string, string][] = [];
  if (s.charCodeAt(++i) === CLOSE_BRACKET) {
    p.i = i + 1;
    return out;
  }
  for (;;) {
    if (s.charCodeAt(i) !== OPEN_BRACKET || s.charCodeAt(i + 1) !== QUOTE) return FAIL;
    const p0 = i + 2;
    const p1 = quotedDecimalEnd(s, p0);
    if (p1 < 0 || s.charCodeAt(p1 + 1) !== COMMA || s.charCodeAt(p1 + 2) !== QUOTE) return FAIL;
    const q0 = p1 + 3;
    const q1 = quotedDecimalEnd(s, q0);
    if (q1 < 0 || s.charCodeAt(q1 + 1) !== CLOSE_BRACKET) return FAIL;
    out.push([ownQuotedText(s, p0, p1), ownQuotedText(s, q0, q1)]);
    i = q1 + 2;
    const c = s.charCodeAt(i++);
    if (c === CLOSE_BRACKET) {
      p.i = i;
      return out;
    }
    if (c !== COMMA) return FAIL;
  }
}

/** One declared field: its key, whether it is a level array, its check otherwise, and its bit among the required. */
interface Field {
  readonly key: string;
  readonly levels: boolean;
  readonly check: FastCheck;
  readonly requiredBit: number;
}

/** Whether `s` holds exactly `key` between `from` and `to`. */
function isKey(s: string, from: number, to: number, key: string): boolean {
  if (to - from !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (s.charCodeAt(from + k) !== key.charCodeAt(k)) return false;
  return true;
}

/** The one reader, made on first use. */
let shared: Reader | undefined;

/** The reader of {@link DepthRecordCodec}'s records (see the module doc). @internal */
export function depthRecordReader(): Reader {
  return (shared ??= makeDepthRecordReader());
}

function makeDepthRecordReader(): Reader {
  const declared = fieldsOf(DepthRecordCodec)!;
  const requiredKeys = Object.keys(declared.required);
  const isLevels = (codec: t.Mixed): boolean => codec instanceof t.ArrayType && (codec as t.ArrayType<t.Mixed>).type === DepthLevelCodec;
  const fields: Field[] = [...Object.entries(declared.required), ...Object.entries(declared.optional)].map(([key, codec]) => ({
    key,
    levels: isLevels(codec as t.Mixed),
    check: fastCheckOf(codec as t.Mixed),
    requiredBit: requiredKeys.includes(key) ? 1 << requiredKeys.indexOf(key) : 0,
  }));
  const allRequired = (1 << requiredKeys.length) - 1;
  const n = fields.length;
  return (s, p) => {
    let i = p.i;
    if (s.charCodeAt(i) !== OPEN_BRACE) return FAIL;
    const out: Record<string, unknown> = {};
    let seen = 0;
    let c = s.charCodeAt(++i);
    if (c === CLOSE_BRACE) i++;
    else
      for (;;) {
        if (c !== QUOTE) return FAIL;
        const k0 = i + 1;
        const ke = plainStringEnd(s, k0);
        if (ke < 0 || s.charCodeAt(ke + 1) !== COLON) return FAIL;
        i = ke + 2;
        let field: Field | undefined;
        for (let f = 0; f < n; f++) {
          if (isKey(s, k0, ke, fields[f]!.key)) {
            field = fields[f];
            break;
          }
        }
        let v: unknown;
        c = s.charCodeAt(i);
        if (field?.levels === true) {
          p.i = i;
          v = readLevels(s, p);
          if (v === FAIL) return FAIL;
          i = p.i;
        } else {
          if (c === QUOTE) {
            const e = plainStringEnd(s, i + 1);
            if (e < 0) return FAIL;
            v = ownQuotedText(s, i + 1, e);
            i = e + 1;
          } else if (c === OPEN_BRACE || c === OPEN_BRACKET) return FAIL;
          else {
            p.i = i;
            v = readPrimitive(s, p);
            if (v === FAIL) return FAIL;
            i = p.i;
          }
          if (field !== undefined) {
            v = field.check(v);
            if (v === FAIL) return FAIL;
          }
        }
        if (field !== undefined) {
          out[field.key] = v;
          seen |= field.requiredBit;
        } else {
          const key = ownText(s, k0, ke);
          if (key === '__proto__') return FAIL;
          out[key] = v;
        }
        c = s.charCodeAt(i++);
        if (c === CLOSE_BRACE) break;
        if (c !== COMMA) return FAIL;
        c = s.charCodeAt(i);
      }
    if (seen !== allRequired) return FAIL;
    p.i = i;
    return out;
  };
}
