import { isDecimalGrammar } from '../decimal/grammar';
import { isRecord } from '../internal/guards';
import { AsIs, FAIL, type FastCheck, passesAsIs } from './fastCheckBase';

/**
 * The fast check of a record of declared fields: the generic loop, and the same compiled for one shape.
 * @internal
 * @module
 */

/**
 * The check of an object with `keys` (`optional[i]`: the field is skipped when absent or `undefined`), each
 * checked by `checks[i]` after the inline test `asIs[i]`; extra fields
 * are kept. The output is the input itself when no field converts, else (`inPlace` false) a shallow copy
 * with the converted fields or (`inPlace` true) the input with the converted fields written into it.
 * Nothing is copied or written before every field has passed. @internal
 */
export function recordCheck(
  keys: readonly string[],
  checks: readonly FastCheck[],
  asIs: readonly AsIs[],
  optional: readonly boolean[],
  inPlace: boolean,
): FastCheck<Record<string, unknown>> {
  const n = keys.length;
  // The converted fields of the running call, kept between the field checks and the one copy or write at
  // the end: reused across calls (no allocation per record). A re-entrant call (a recursive shape) gets its
  // own; after a getter threw, `busy` may stay set and later calls take that path too (still correct).
  const pendingKeys: string[] = [];
  const pendingValues: unknown[] = [];
  let busy = false;
  return (u, prechecked) => {
    if (!isRecord(u)) return FAIL;
    const reentered = busy;
    const ks = reentered ? [] : pendingKeys;
    const vs = reentered ? [] : pendingValues;
    let pending = 0;
    busy = true;
    for (let i = 0; i < n; i++) {
      const k = keys[i] as string;
      const a = u[k];
      // The inline tests of the commonest fields written out (a call to passesAsIs is not always inlined).
      const kind = asIs[i] as AsIs;
      if (kind === AsIs.decimalText) {
        if (typeof a === 'string' && isDecimalGrammar(a)) continue;
      } else if (kind === AsIs.text) {
        if (typeof a === 'string') continue;
      } else if (kind === AsIs.safeInteger) {
        if (typeof a === 'number' && Number.isSafeInteger(a)) continue;
      } else if (passesAsIs(kind, a)) continue;
      if (a === undefined && optional[i] === true) continue;
      const b = (checks[i] as FastCheck)(a, prechecked);
      if (b === FAIL) {
        for (let j = 0; j < pending; j++) vs[j] = undefined;
        busy = reentered;
        return FAIL;
      }
      if (b !== a) {
        ks[pending] = k;
        vs[pending] = b;
        pending++;
      }
    }
    busy = reentered;
    if (pending === 0) return u;
    const out = inPlace ? u : { ...u };
    for (let j = 0; j < pending; j++) {
      out[ks[j] as string] = vs[j];
      vs[j] = undefined;
    }
    return out;
  };
}

/** Inline test source of an {@link AsIs} kind for the value in `v`, or `undefined` for none. @internal */
export function inlineTest(kind: AsIs, v: string): string | undefined {
  switch (kind) {
    case AsIs.any:
      return 'true';
    case AsIs.text:
      return `typeof ${v} === 'string'`;
    case AsIs.nonEmptyText:
      return `(typeof ${v} === 'string' && ${v}.length > 0)`;
    case AsIs.decimalText:
      return `(typeof ${v} === 'string' && isDecimalGrammar(${v}))`;
    case AsIs.safeInteger:
      return `(typeof ${v} === 'number' && Number.isSafeInteger(${v}))`;
    case AsIs.boolean:
      return `typeof ${v} === 'boolean'`;
    default:
      return undefined;
  }
}

/**
 * {@link recordCheck} compiled for one shape (`new Function`): the same semantics, with a named property load
 * and an inline test written out per field, so the engine specialises each (the generic loop's keyed loads see
 * every shape). `undefined` where code cannot be compiled (a content security policy without `unsafe-eval`):
 * then the generic loop runs. The source is built from the declaration's own keys only (never from input),
 * each key written as a JSON string literal. @internal
 */
export function compiledRecordCheck(
  keys: readonly string[],
  checks: readonly FastCheck[],
  asIs: readonly AsIs[],
  optional: readonly boolean[],
  inPlace: boolean,
): FastCheck<Record<string, unknown>> | undefined {
  const n = keys.length;
  // The generic loop's semantics, written out: the inline test, an absent optional field, the field's check;
  // nothing copied or written before every field passed (the `b` values), then one copy or one write per change.
  const lines: string[] = ['return function check(u, prechecked) {', '  if (typeof u !== "object" || u === null || Array.isArray(u)) return FAIL;'];
  for (let i = 0; i < n; i++) {
    const key = JSON.stringify(keys[i]);
    const test = inlineTest(asIs[i] as AsIs, `a${i}`);
    lines.push(`  const a${i} = u[${key}];`);
    lines.push(`  let b${i} = a${i};`);
    const skip = [test, optional[i] === true ? `a${i} === undefined` : undefined].filter((x) => x !== undefined).join(' || ');
    lines.push(`  if (!(${skip || 'false'})) { b${i} = checks[${i}](a${i}, prechecked); if (b${i} === FAIL) return FAIL; }`);
  }
  const changed = keys.map((_, i) => `b${i} !== a${i}`).join(' || ');
  lines.push(`  if (!(${changed || 'false'})) return u;`);
  lines.push(inPlace ? '  const out = u;' : '  const out = { ...u };');
  for (let i = 0; i < n; i++) lines.push(`  if (b${i} !== a${i}) out[${JSON.stringify(keys[i])}] = b${i};`);
  lines.push('  return out;', '};');
  return compiled(['checks', 'FAIL', 'isDecimalGrammar'], lines, [checks, FAIL, isDecimalGrammar]) as FastCheck<Record<string, unknown>> | undefined;
}

/** Whether code can be compiled here: `undefined` until first tried. */
let compiling: boolean | undefined;

/**
 * The value of generated source `lines` (`new Function(...params, body)(...args)`), or `undefined` where code
 * cannot be compiled (a content security policy without `unsafe-eval`): refused once, never asked again, so
 * such a page sees one refusal, not one per codec. The one `new Function` of ex-streams; callers build the
 * source from declarations only (never from input). @internal
 */
export function compiled(params: readonly string[], lines: readonly string[], args: readonly unknown[]): unknown {
  if (compiling === false) return undefined;
  try {
    const value: unknown = new Function(...params, lines.join('\n'))(...args);
    compiling = true;
    return value;
  } catch {
    compiling = false;
    return undefined;
  }
}

/**
 * The check of a record of these fields (see {@link recordCheck}): compiled for the shape when the runtime
 * allows it ({@link compiledRecordCheck}: about 7 points of `trades()` and 4 of `klines()` in the public-API
 * benchmark, notes/performance-history.md), the generic loop otherwise; both property-tested to agree
 * (`spec/codecs/fastCheck.spec.ts`). @internal
 */
export function shapeRecordCheck(
  keys: readonly string[],
  checks: readonly FastCheck[],
  asIs: readonly AsIs[],
  optional: readonly boolean[],
  inPlace: boolean,
): FastCheck<Record<string, unknown>> {
  return compiledRecordCheck(keys, checks, asIs, optional, inPlace) ?? recordCheck(keys, checks, asIs, optional, inPlace);
}
