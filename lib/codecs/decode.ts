import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { DecodeError } from '../errors';
import { EXCERPT_LOOKAHEAD, excerpt, RAW_EXCERPT_LENGTH } from '../internal/redact';

/** Longest rendering of a failing value in a path line (then `…`). @internal */
export const PATH_VALUE_LENGTH = 40;
/** Longest context path (`: A/b: C`) of a path line (then `…`). */
const CONTEXT_PATH_LENGTH = 200;
/** Most path lines of one error; the others are counted in a last line (`… and N more`). @internal */
export const MAX_PATH_LINES = 10;

/**
 * Runs a codec and turns a failure into a typed {@link DecodeError} value carrying PathReporter-style
 * lines and a redacted excerpt of the input. Never throws, and its work is bounded whatever the input
 * (see {@link DecodeError.paths}).
 *
 * @example
 * ```ts
 * import { decodeWith, TradeRecordCodec } from 'ex-streams/codecs';
 * const r = decodeWith(TradeRecordCodec, { v: '1', t: 1, p: '1', q: '1', m: true });
 * if (r._tag === 'Right') console.log(r.right.p); // '1'
 * ```
 */
export function decodeWith<A>(
  codec: t.Decoder<unknown, A> & { readonly name: string },
  input: unknown,
  raw?: string,
): E.Either<DecodeError, A> {
  const result = codec.decode(input);
  if (E.isRight(result)) return result as E.Right<A>;
  return E.left(decodeErrorFrom(codec.name, result.left, input, raw));
}

/** Builds a {@link DecodeError} from io-ts errors: bounded, redacted paths and excerpt. @internal */
export function decodeErrorFrom(name: string, errors: t.Errors, input: unknown, raw?: string): DecodeError {
  return new DecodeError('codec', `${name} failed to decode: ${errors.length} error(s)`, reportPaths(errors), rawExcerpt(input, raw));
}

/**
 * The one error of a frame (or message) of which `failed` elements out of `total` failed to decode:
 * `"<failed> of <total> <what> failed to decode"`, with the paths and excerpt of the `first` failure only.
 * @internal
 */
export function countedDecodeError(first: DecodeError, failed: number, total: number, what: string): DecodeError {
  return new DecodeError('codec', `${failed} of ${total} ${what} failed to decode (paths: the first)`, first.paths, first.raw);
}

/** A redacted excerpt of `raw` when given, else of a bounded rendering of `input`. Never throws. @internal */
export function rawExcerpt(input: unknown, raw?: string): string {
  return excerpt(raw ?? renderValue(input, RAW_EXCERPT_LENGTH + EXCERPT_LOOKAHEAD));
}

/**
 * io-ts errors as PathReporter lines (`Invalid value <v> supplied to : A/b: C`, or the codec's own
 * message), each failing value rendered short ({@link showValue}), at most {@link MAX_PATH_LINES} lines
 * plus a line counting the others. Same lines as PathReporter wherever values are short; never recursive,
 * never throws, redacted.
 * @internal
 */
export function reportPaths(errors: t.Errors): string[] {
  const n = errors.length;
  const shown = Math.min(n, MAX_PATH_LINES);
  const lines: string[] = [];
  for (let i = 0; i < shown; i++) {
    const e = errors[i]!;
    lines.push(
      e.message !== undefined
        ? excerpt(e.message, undefined, CONTEXT_PATH_LENGTH)
        : `Invalid value ${showValue(e.value)} supplied to ${contextPath(e.context)}`,
    );
  }
  if (n > shown) lines.push(`… and ${n - shown} more`);
  return lines;
}

/** `: A/b: C` as PathReporter writes it, keys redacted, cut at {@link CONTEXT_PATH_LENGTH}. */
function contextPath(context: t.Context): string {
  let out = '';
  for (let i = 0; i < context.length && out.length <= CONTEXT_PATH_LENGTH; i++) {
    const { key, type } = context[i]!;
    out += `${i > 0 ? '/' : ''}${excerpt(key, undefined, PATH_VALUE_LENGTH)}: ${type.name}`;
  }
  return out.length > CONTEXT_PATH_LENGTH ? out.slice(0, CONTEXT_PATH_LENGTH) + '…' : out;
}

/**
 * A value as PathReporter shows it (JSON; `NaN`, `Infinity`, a function's name), redacted and cut at
 * `max` characters (then `…`). Reads at most a few KB of the value, whatever its size or depth.
 * @internal
 */
export function showValue(value: unknown, max: number = PATH_VALUE_LENGTH): string {
  return excerpt(renderValue(value, max + EXCERPT_LOOKAHEAD), undefined, max);
}

/** `JSON.stringify(s)` of the first `budget` characters of `s`. */
const quote = (s: string, budget: number): string => JSON.stringify(s.length > budget ? s.slice(0, budget) : s);

function renderScalar(v: unknown, budget: number): string {
  switch (typeof v) {
    case 'string':
      return quote(v, budget);
    case 'number':
      return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : String(v);
    case 'function': {
      const f = v as { displayName?: unknown; name?: unknown; length: number };
      const name = typeof f.displayName === 'string' ? f.displayName : f.name;
      return typeof name === 'string' && name !== '' ? name : `<function${f.length}>`;
    }
    case 'undefined':
      return 'undefined';
    default:
      return String(v);
  }
}

/** Own enumerable keys of `o` whose value JSON would show, at most `limit` of them; `more` when some were left. */
function keysOf(o: Record<string, unknown>, limit: number): { keys: string[]; more: boolean } {
  const keys: string[] = [];
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
    const v = o[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    if (keys.length === limit) return { keys, more: true };
    keys.push(k);
  }
  return { keys, more: false };
}

interface Level {
  readonly value: object;
  /** The keys of an object; `undefined` for an array. */
  readonly keys: readonly string[] | undefined;
  readonly more: boolean;
  i: number;
}

/**
 * `JSON.stringify(value)` (PathReporter's rendering) of its first `budget` characters or a little more,
 * with an explicit stack (no recursion, so any depth), reading at most about `budget` elements and keys.
 * Never throws (a throwing getter or proxy gives `<unprintable>`).
 * @internal
 */
export function renderValue(value: unknown, budget: number): string {
  try {
    if (typeof value !== 'object' || value === null) return renderScalar(value, budget);
    const stack: Level[] = [];
    let out = '';
    let next: unknown = value;
    let pending = true;
    while (out.length < budget) {
      if (pending) {
        pending = false;
        const v = next;
        if (typeof v !== 'object' || v === null) out += renderScalar(v, budget);
        else if (Array.isArray(v)) {
          out += '[';
          stack.push({ value: v, keys: undefined, more: false, i: 0 });
        } else {
          out += '{';
          const { keys, more } = keysOf(v as Record<string, unknown>, budget);
          stack.push({ value: v, keys, more, i: 0 });
        }
        continue;
      }
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const { keys } = top;
      const length = keys === undefined ? (top.value as unknown[]).length : keys.length;
      if (top.i >= length) {
        if (top.more) return out + '…';
        out += keys === undefined ? ']' : '}';
        stack.pop();
        continue;
      }
      if (top.i > 0) out += ',';
      if (keys === undefined) {
        const element = (top.value as unknown[])[top.i];
        next = element === undefined || typeof element === 'function' || typeof element === 'symbol' ? null : element;
      } else {
        const key = keys[top.i]!;
        out += quote(key, budget) + ':';
        next = (top.value as Record<string, unknown>)[key];
      }
      top.i++;
      pending = true;
    }
    return out;
  } catch {
    return '<unprintable>';
  }
}
