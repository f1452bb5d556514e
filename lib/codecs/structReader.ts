// Data path (notes/architecture.md, "The data path"): step 3, the market frames' branch: JSON text → checked envelope and records in one pass.
import * as t from 'io-ts';
import { isDecimalGrammar, quotedDecimalEnd, skipDigits } from '../decimal/grammar';
import { LONG_DIGITS } from '../frame/json';
import { ownQuotedText, ownText } from '../internal/ownText';
import { AsIs, asIsOf, compiled, FAIL, fastCheckOf, type FastCheck, inlineTest } from './fastCheck';
import { EXACT_DIGITS, IdFromNumberOrString } from './primitives';
import { fieldsOf } from './struct';

/**
 * Readers of compact JSON text straight into a `struct`'s checked value: the parse, the fast check and its
 * conversions in one pass, derived from the struct's declaration (its keys and its fields' checks; nothing is
 * written a second time). A reader is a stand-in for `JSON.parse` followed by the check in place, on the frames
 * the service sends (no whitespace, no escapes); measured in `docs/performance.md` ("The eighth pass").
 *
 * What a reader accepts, it accepts exactly as `JSON.parse` of the text with its long integers quoted (the exact
 * parse, `parseJsonValue`) followed by the struct's check: the same value, field by field (the key order of a
 * reader's value is the declaration's). Anything else (whitespace, an escape, a control character, a nested
 * value in an undeclared field, a key `__proto__`, a value its check refuses) is {@link FAIL}, and the caller
 * takes the general path. `spec/codecs/structReader.spec.ts` proves it on generated and mutated texts.
 *
 * @internal
 * @module
 */

/** The read position, shared by the readers of one text (no tuple per value). @internal */
export interface ReadPosition {
  /** The index in the text of the next character to read. */
  i: number;
}

/** Reads the value at `p.i` and moves `p.i` past it, or answers {@link FAIL} (`p.i` is then unspecified). @internal */
export type Reader = (s: string, p: ReadPosition) => unknown;

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/**
 * The JSON number, `true`, `false` or `null` at `p.i` (strings are read by the readers themselves). A bare
 * integer of 16+ digits is its text (a 64-bit id, exact), as in the exact parse; any other number is `Number` of
 * its text, which is what `JSON.parse` gives. @internal
 */
export function readPrimitive(s: string, p: ReadPosition): unknown {
  let i = p.i;
  const c = s.charCodeAt(i);
  if (c === 0x74) return s.startsWith('true', i) ? ((p.i = i + 4), true) : FAIL;
  if (c === 0x66) return s.startsWith('false', i) ? ((p.i = i + 5), false) : FAIL;
  if (c === 0x6e) return s.startsWith('null', i) ? ((p.i = i + 4), null) : FAIL;
  const n = s.length;
  const start = i;
  if (c === MINUS) i++;
  const digits = i;
  const first = s.charCodeAt(i);
  if (first === DIGIT_0) i++;
  else if (first > DIGIT_0 && first <= DIGIT_9) i = skipDigits(s, i + 1, n);
  else return FAIL;
  const integerEnd = i;
  let d = s.charCodeAt(i);
  if (d === DOT) {
    const fraction = i + 1;
    i = skipDigits(s, fraction, n);
    if (i === fraction) return FAIL;
    d = s.charCodeAt(i);
  }
  if (d === 0x65 || d === 0x45) {
    d = s.charCodeAt(++i);
    if (d === PLUS || d === MINUS) i++;
    const exponent = i;
    i = skipDigits(s, exponent, n);
    if (i === exponent) return FAIL;
  }
  p.i = i;
  const text = s.slice(start, i);
  return i === integerEnd && integerEnd - digits >= LONG_DIGITS ? ownText(text) : Number(text);
}

/** The array at `p.i` (its `[`), each element read by `item`. @internal */
export function readArray(s: string, p: ReadPosition, item: Reader): unknown {
  if (s.charCodeAt(p.i) !== OPEN_BRACKET) return FAIL;
  let i = p.i + 1;
  if (s.charCodeAt(i) === CLOSE_BRACKET) {
    p.i = i + 1;
    return [];
  }
  // Made with its first element (the usual array holds one: no room for 16 more allocated by a first `push`).
  let out: unknown[] | undefined;
  for (;;) {
    p.i = i;
    const value = item(s, p);
    if (value === FAIL) return FAIL;
    if (out === undefined) out = [value];
    else out.push(value);
    i = p.i;
    const c = s.charCodeAt(i++);
    if (c === CLOSE_BRACKET) break;
    if (c !== COMMA) return FAIL;
  }
  p.i = i;
  return out;
}

/** How a {@link structReader} treats what the declaration does not name, and which field it reads by another's value. @internal */
export interface StructReaderOptions {
  /**
   * `'keep'` (a record the user gets): undeclared fields with a primitive value are kept, as the check keeps
   * them. `'drop'` (an envelope the library reads and drops): they are skipped, and the value has every
   * declared key (`undefined` where absent). Default `'keep'`.
   */
  readonly undeclared?: 'keep' | 'drop' | undefined;
  /** Undeclared keys that make the text not for this reader (e.g. `ping`, which the heartbeat must see). */
  readonly refuse?: readonly string[] | undefined;
  /**
   * A field (an array) whose elements' reader depends on another field's value read before it (the envelope's
   * `data`, by its `topic`); `undefined` from `reader`, or the other field not read yet, is {@link FAIL}.
   */
  readonly dependent?: { readonly field: string; readonly on: string; readonly reader: (value: unknown) => Reader | undefined } | undefined;
  /**
   * Each declared string field remembers the last string it made, and the same text again gives the same string
   * (no new string). For values that stay alive in numbers (the private stream's events in the reorder hold and
   * the order states): `JSON.parse` shares its short strings between the values it makes, a reader without this
   * makes each its own. Default `false`.
   */
  readonly remember?: boolean | undefined;
  /**
   * Declared fields read by a reader of the caller's instead (a value no struct reader reads, e.g. a book's levels):
   * what it reads is the field's value, unchecked (the reader checks what it accepts as the field's check would).
   */
  readonly fieldReaders?: Readonly<Record<string, Reader>> | undefined;
}

/** Undeclared fields a reader keeps in locals (and, remembering, whose keys and text it remembers); more go in arrays. */
const EXTRA_SLOTS = 3;

/** Fields per word of the `seen` bits (one bit each, in small integers). */
const WORD_FIELDS = 30;

/** Most fields a reader tells apart (two words of `seen` bits). */
const MAX_FIELDS = 2 * WORD_FIELDS;

/** The `seen` word of field `n` and its bit in it: `seen0` holds fields 0-29, `seen1` fields 30-59. */
const seenWord = (n: number): string => `seen${Math.floor(n / WORD_FIELDS)}`;
const seenBit = (n: number): number => 1 << n % WORD_FIELDS;
/** Most optional fields a literal of the common case leaves out (the last ones declared; see `structReader`). */
const PREFIX_LITERALS = 8;

/** The source of "exactly the first `n` fields were seen" (the `seen` words equal to their masks). */
function exactlySeen(n: number): string {
  const words = [0, 0];
  for (let m = 0; m < n; m++) words[Math.floor(m / WORD_FIELDS)]! |= seenBit(m);
  return words.map((mask, w) => `seen${w} === ${mask}`).join(' && ');
}

/** The source of "the fields `ns` were all seen" (`true` for none), one test per word. */
function allSeen(ns: readonly number[]): string {
  const words = new Map<string, number>();
  for (const n of ns) words.set(seenWord(n), (words.get(seenWord(n)) ?? 0) | seenBit(n));
  const tests = [...words].map(([word, mask]) => `(${word} & ${mask}) === ${mask}`);
  return tests.length === 0 ? 'true' : tests.join(' && ');
}

/**
 * The reader of `codec`'s objects, compiled from its declaration (`struct`); `undefined` when `codec` is not a
 * struct, has more than 60 fields, or code cannot be compiled here (a content security policy): then the
 * caller parses. A field that is a struct or an array of structs is read by their reader, any other field as a
 * JSON primitive through the field's own check. The source is built from the declaration's keys only, each
 * written as a JSON string literal. @internal
 */
export function structReader(codec: t.Decoder<unknown, unknown>, options: StructReaderOptions = {}): Reader | undefined {
  const fields = fieldsOf(codec);
  if (fields === undefined) return undefined;
  const requiredKeys = Object.keys(fields.required);
  const keys = [...requiredKeys, ...Object.keys(fields.optional)];
  if (keys.length > MAX_FIELDS) return undefined;
  // The key trie ends a key at its quote and matches it character for character: a key that JSON writes with an
  // escape (a quote, a backslash, a control character) is left to the general path.
  if ([...keys, ...(options.refuse ?? [])].some((k) => /["\\\u0000-\u001f]/.test(k))) return undefined;
  const codecs = keys.map((k) => (fields.required[k] ?? fields.optional[k]) as t.Mixed);
  const keep = options.undeclared !== 'drop';
  const { dependent } = options;
  const checks: FastCheck[] = codecs.map((c) => fastCheckOf(c));
  const readers: (Reader | undefined)[] = [];
  const lines: string[] = [];
  const line = (text: string): number => lines.push(text);
  // A string's text is taken between its quotes. A check that accepts only digits (a time, a decimal, a boolean's
  // text) refuses an escape or a control character itself; any other string is scanned for them.
  const remember = options.remember === true;
  // The text between the quotes at `i` and `e` as a string of its own (a declared field `n` remembering: the last
  // string it made, when its text is the same).
  const remembered = (memory: string, from: string, to: string, make: string): string =>
    `(${memory}.length === ${to} - (${from}) && textAt(s, ${from}, ${memory}) ? ${memory} : (${memory} = ${make}))`;
  const own = (n?: number): string => (remember && n !== undefined ? remembered(`m${n}`, 'i + 1', 'e', 'ownQuotedText(s, i + 1, e)') : 'ownQuotedText(s, i + 1, e)');
  // An undeclared field's key and string value, in the first `EXTRA_SLOTS` slots remembered per slot.
  const bySlot = (memory: string, from: string, to: string, make: string): string =>
    remember ? `${[...Array(EXTRA_SLOTS).keys()].map((j) => `nx === ${j} ? ${remembered(`${memory}${j}`, from, to, make)} : `).join('')}${make}` : make;
  const readString = (scan: boolean, n?: number): string =>
    scan
      ? `if (c === 34) { e = plainStringEnd(s, i + 1); if (e < 0) return FAIL; v = ${own(n)}; i = e + 1; }`
      : `if (c === 34) { e = s.indexOf('"', i + 1); if (e < 0) return FAIL; v = s.slice(i + 1, e); i = e + 1; }`;
  const readOther = 'else { p.i = i; v = readPrimitive(s, p); if (v === FAIL) return FAIL; i = p.i; }';
  const xs = keys.map((_, n) => `x${n}`).join(', ');
  if (remember) {
    line(`let ${keys.map((_, n) => `m${n} = ''`).join(', ')};`);
    line(`let ${[...Array(EXTRA_SLOTS).keys()].map((j) => `u${j} = '', w${j} = ''`).join(', ')};`);
  }
  line('return function read(s, p) {');
  line('  let i = p.i;');
  line('  if (s.charCodeAt(i) !== 123) return FAIL;');
  line(`  let seen0 = 0, seen1 = 0, v, e, ek, ev, nx = 0, ${[...Array(EXTRA_SLOTS).keys()].map((j) => `xk${j}, xv${j}`).join(', ')}, ${xs};`);
  line('  let c = s.charCodeAt(++i);');
  line('  if (c === 125) i++;');
  line('  else for (;;) {');
  line('    if (c !== 34) return FAIL;');
  line('    const k0 = i + 1;');
  line('    let f = -1, ke = -1;');
  // Refused keys are in the key trie too: numbered after the declared ones, they end the read (FAIL).
  keyTrie([...keys, ...(options.refuse ?? [])], keys.length, line);
  // Any other key: its end, its text plain (no escape, no control character), or FAIL.
  line('    if (ke < 0) { ke = plainStringEnd(s, k0); if (ke < 0) return FAIL; }');
  line('    if (s.charCodeAt(ke + 1) !== 58) return FAIL;');
  line('    i = ke + 2;');
  line('    c = s.charCodeAt(i);');
  line('    switch (f) {');
  const dependentField = dependent === undefined ? -1 : keys.indexOf(dependent.field);
  keys.forEach((key, n) => {
    const field = codecs[n] as t.Mixed;
    line(`      case ${n}:`);
    // The field a dependent field's reader was chosen by cannot change after it (a duplicate key: the last wins).
    if (dependent !== undefined && dependent.on === key) line(`        if ((${seenWord(dependentField)} & ${seenBit(dependentField)}) !== 0) return FAIL;`);
    const nested = structReader(field, { undeclared: options.undeclared, remember });
    const element = field instanceof t.ArrayType ? structReader((field as t.ArrayType<t.Mixed>).type, { undeclared: options.undeclared, remember }) : undefined;
    const fieldReader = options.fieldReaders?.[key];
    if (fieldReader !== undefined) {
      readers[n] = fieldReader;
      line(`        p.i = i; v = readers[${n}](s, p); if (v === FAIL) return FAIL; i = p.i;`);
    } else if (dependent !== undefined && dependent.field === key) {
      const on = keys.indexOf(dependent.on);
      if (on < 0) return undefined;
      line(`        { const r = dependent(x${on}); if (r === undefined) return FAIL; p.i = i; v = readArray(s, p, r); if (v === FAIL) return FAIL; i = p.i; }`);
    } else if (nested !== undefined) {
      readers[n] = nested;
      line(`        if (c !== 123) return FAIL; p.i = i; v = readers[${n}](s, p); if (v === FAIL) return FAIL; i = p.i;`);
    } else if (element !== undefined) {
      readers[n] = element;
      line(`        p.i = i; v = readArray(s, p, readers[${n}]); if (v === FAIL) return FAIL; i = p.i;`);
    } else {
      const kind = asIsOf(field);
      const test = inlineTest(kind, 'v');
      // A string kept is a copy (`ownText`), not a view that keeps the frame alive: a string no check restricts is
      // copied when it is read (its content scanned first), one restricted to digits once its check passed.
      const scan = !DIGITS_ONLY.includes(kind);
      const general = `${readString(scan, n)} ${readOther}\n        if (!(${test ?? 'false'})) { v = checks[${n}](v); if (v === FAIL) return FAIL; }${scan ? '' : "\n        if (typeof v === 'string') v = ownText(v);"}`;
      if (kind === AsIs.decimalText) {
        // The common form, "digits[.digits]", read once: it is decimal text, so no check runs.
        line(`        e = c === 34 ? quotedDecimalEnd(s, i + 1) : -1;`);
        line(`        if (e > 0) { v = ${own(n)}; i = e + 1; }`);
        line(`        else { ${general} }`);
      } else if (kind === AsIs.safeInteger) {
        // The common form, a time as text of at most 15 digits, read into its number at once (as its check would).
        line(`        v = c === 34 ? plainIntegerText(s, i + 1, p) : FAIL;`);
        line(`        if (v !== FAIL) i = p.i;`);
        line(`        else { ${general} }`);
      } else if (field === IdFromNumberOrString) {
        // The common form of an id sent as a number (a delta's sequence `o`), at most 15 digits: its text is what
        // `String` of its number gives, taken from the frame (no number, no conversion: `String` of each new number
        // puts its text in the engine's number-to-string cache, which keeps it alive into the old generation).
        line(`        v = c >= 48 && c <= 57 ? integerDigits(s, i, p) : FAIL;`);
        line(`        if (v !== FAIL) i = p.i;`);
        line(`        else { ${general} }`);
      } else if (kind === AsIs.boolean) {
        // The common form, a bare `true` or `false`, recognised by its letters (what follows is checked as any value's end).
        line('        if (c === 116 && s.charCodeAt(i + 1) === 114 && s.charCodeAt(i + 2) === 117 && s.charCodeAt(i + 3) === 101) { v = true; i += 4; }');
        line('        else if (c === 102 && s.charCodeAt(i + 1) === 97 && s.charCodeAt(i + 2) === 108 && s.charCodeAt(i + 3) === 115 && s.charCodeAt(i + 4) === 101) { v = false; i += 5; }');
        // … or as the service often writes it, in quotes (what the check converts it to).
        line('        else if (c === 34 && s.charCodeAt(i + 1) === 116 && s.charCodeAt(i + 2) === 114 && s.charCodeAt(i + 3) === 117 && s.charCodeAt(i + 4) === 101 && s.charCodeAt(i + 5) === 34) { v = true; i += 6; }');
        line('        else if (c === 34 && s.charCodeAt(i + 1) === 102 && s.charCodeAt(i + 2) === 97 && s.charCodeAt(i + 3) === 108 && s.charCodeAt(i + 4) === 115 && s.charCodeAt(i + 5) === 101 && s.charCodeAt(i + 6) === 34) { v = false; i += 7; }');
        line(`        else { ${general} }`);
      } else {
        line(`        ${general}`);
      }
    }
    line(`        x${n} = v; ${seenWord(n)} |= ${seenBit(n)};`);
    line('        break;');
  });
  line('      default:');
  line('        if (c === 123 || c === 91) return FAIL;');
  if (keep) {
    // The first few in locals (no array), the rest in two arrays; keys and text copied out of the frame.
    line(`        if (c === 34) { e = plainStringEnd(s, i + 1); if (e < 0) return FAIL; v = ${bySlot('w', 'i + 1', 'e', 'ownQuotedText(s, i + 1, e)')}; i = e + 1; } ${readOther}`);
    line(`        { const key = ${bySlot('u', 'k0', 'ke', 'ownText(s, k0, ke)')}; if (key === "__proto__") return FAIL;`);
    line(`          switch (nx++) { ${[...Array(EXTRA_SLOTS).keys()].map((j) => `case ${j}: xk${j} = key; xv${j} = v; break;`).join(' ')}`);
    line('            default: if (ek === undefined) { ek = [key]; ev = [v]; } else { ek.push(key); ev.push(v); } } }');
  } else {
    // A value dropped is checked (a string plain, a primitive valid) and skipped, not taken out of the text.
    line(`        if (c === 34) { e = plainStringEnd(s, i + 1); if (e < 0) return FAIL; i = e + 1; } ${readOther}`);
  }
  line('    }');
  line('    c = s.charCodeAt(i++);');
  line('    if (c === 125) break;');
  line('    if (c !== 44) return FAIL;');
  line('    c = s.charCodeAt(i);');
  line('  }');
  const fieldNumbers = keys.map((_, n) => n);
  line(`  if (!(${allSeen(fieldNumbers.slice(0, requiredKeys.length))})) return FAIL;`);
  line('  p.i = i;');
  const literal = `{ ${keys.map((k, n) => `${JSON.stringify(k)}: x${n}`).join(', ')} }`;
  if (!keep) {
    line(`  return ${literal};`);
  } else {
    // One literal (one allocation of the final size) in the common cases: every field present, or every field but the
    // last few optional ones (fields a deployment adds, declared last: absent from most frames).
    line('  let o;');
    line(`  if (${allSeen(fieldNumbers)}) o = ${literal};`);
    const shortest = Math.max(requiredKeys.length, keys.length - PREFIX_LITERALS);
    for (let n = keys.length - 1; n >= shortest; n--) {
      line(`  else if (${exactlySeen(n)}) o = { ${keys.slice(0, n).map((k, m) => `${JSON.stringify(k)}: x${m}`).join(', ')} };`);
    }
    line(`  else { o = {}; ${keys.map((k, n) => `if ((${seenWord(n)} & ${seenBit(n)}) !== 0) o[${JSON.stringify(k)}] = x${n};`).join(' ')} }`);
    line(`  if (nx > 0) { ${[...Array(EXTRA_SLOTS).keys()].map((j) => `${j > 0 ? `if (nx > ${j}) { ` : ''}o[xk${j}] = xv${j}; `).join('')}`);
    line(`    if (ek !== undefined) for (let j = 0; j < ek.length; j++) o[ek[j]] = ev[j]; ${'} '.repeat(EXTRA_SLOTS)}`);
    line('  return o;');
  }
  line('};');
  return compiled(
    ['FAIL', 'checks', 'readers', 'dependent', 'readPrimitive', 'readArray', 'isDecimalGrammar', 'plainStringEnd', 'quotedDecimalEnd', 'plainIntegerText', 'integerDigits', 'ownText', 'ownQuotedText', 'textAt'],
    lines,
    [FAIL, checks, readers, dependent?.reader, readPrimitive, readArray, isDecimalGrammar, plainStringEnd, quotedDecimalEnd, plainIntegerText, integerDigits, ownText, ownQuotedText, textAt],
  ) as Reader | undefined;
}

/**
 * The index of the quote that ends the string whose text starts at `from`, when that text holds no control
 * character (invalid in a JSON string) and no backslash (an escape: its string is left to `JSON.parse`); else
 * `-1`. One pass (where `indexOf` and a scan of the text were two). @internal
 */
export function plainStringEnd(s: string, from: number): number {
  const n = s.length;
  for (let i = from; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c < 0x20 || c === BACKSLASH) return -1;
  }
  return -1;
}

/**
 * Whether `text` is in `s` at `from` (the caller has checked that it fits): `s.startsWith(text, from)`, as a loop
 * the compiler inlines into a reader where `startsWith` is a call (a remembering reader compares each string field
 * with its last one: ~0.6 µs of a 27-field execution report by `startsWith`; "The order loop" in
 * docs/performance.md). @internal
 */
export function textAt(s: string, from: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (s.charCodeAt(from + k) !== text.charCodeAt(k)) return false;
  return true;
}

/**
 * The number of the string text of 1 to 15 digits starting at `from` (`p.i` then past its closing quote), or
 * {@link FAIL} when the string there is not of that form (then it is read the general way). @internal
 */
export function plainIntegerText(s: string, from: number, p: ReadPosition): number | typeof FAIL {
  let value = 0;
  let i = from;
  let d = s.charCodeAt(i) - DIGIT_0;
  while (d >= 0 && d <= 9) {
    value = value * 10 + d;
    d = s.charCodeAt(++i) - DIGIT_0;
  }
  if (i === from || i - from > EXACT_DIGITS || d !== QUOTE - DIGIT_0) return FAIL;
  p.i = i + 1;
  return value;
}

/**
 * The text of the bare JSON integer of 1 to 15 digits starting at `from` (`p.i` then past it): `String` of its
 * number, exactly (no sign, no leading zero, no fraction or exponent after it); or {@link FAIL} when the number
 * there is not of that form (then it is read the general way). @internal
 */
export function integerDigits(s: string, from: number, p: ReadPosition): string | typeof FAIL {
  const end = skipDigits(s, from, s.length);
  const n = end - from;
  if (n === 0 || n > EXACT_DIGITS || (n > 1 && s.charCodeAt(from) === DIGIT_0)) return FAIL;
  const next = s.charCodeAt(end);
  if (next === DOT || next === 0x65 || next === 0x45) return FAIL;
  p.i = end;
  return ownText(s, from, end);
}

/** Field kinds whose check accepts a string of digits, `.`, `-` or the words `true`/`false` only: no escape gets through. */
const DIGITS_ONLY: readonly AsIs[] = [AsIs.decimalText, AsIs.safeInteger, AsIs.boolean];

const position: ReadPosition = { i: 0 };

/** The value of the whole `text` read by `reader` (exactly one value, nothing after it), or {@link FAIL}. @internal */
export function readText(text: string, reader: Reader): unknown {
  position.i = 0;
  const value = reader(text, position);
  return value === FAIL || position.i !== text.length ? FAIL : value;
}

/**
 * Writes (`line`) the recognition of a key starting at `k0`: a trie of `switch`es over its characters (the closing
 * quote ends a key), so each key costs one test per character whatever the keys beside it (no search, no call). Sets
 * `f` to the key's number and `ke` to its closing quote; keys numbered from `declared` on (refused keys) end the
 * read (`return FAIL`). Any other key is left with `ke < 0` (its end is then searched).
 */
function keyTrie(trieKeys: readonly string[], declared: number, line: (text: string) => number): void {
  const found = (n: number, at: number): string => (n < declared ? `f = ${n}; ke = k0 + ${at};` : 'return FAIL;');
  const dispatch = (ns: readonly number[], at: number, indent: string): void => {
    const charAt = (n: number): number => {
      const key = trieKeys[n]!;
      return at < key.length ? key.charCodeAt(at) : QUOTE;
    };
    if (ns.length === 1) {
      const n = ns[0]!;
      const key = trieKeys[n]!;
      const rest = [...Array(key.length + 1).keys()].slice(at).map((j) => `s.charCodeAt(k0 + ${j}) === ${j < key.length ? key.charCodeAt(j) : QUOTE}`);
      line(`${indent}if (${rest.length > 0 ? rest.join(' && ') : 'true'}) { ${found(n, key.length)} }`);
      return;
    }
    const groups = new Map<number, number[]>();
    for (const n of ns) groups.set(charAt(n), [...(groups.get(charAt(n)) ?? []), n]);
    if (groups.size === 1) {
      // A prefix the keys share: one test, no switch.
      line(`${indent}if (s.charCodeAt(k0 + ${at}) === ${charAt(ns[0]!)}) {`);
      dispatch(ns, at + 1, `${indent}  `);
      line(`${indent}}`);
      return;
    }
    line(`${indent}switch (s.charCodeAt(k0 + ${at})) {`);
    for (const [char, group] of groups) {
      line(`${indent}  case ${char}:`);
      if (char === QUOTE) line(`${indent}    ${found(group[0]!, at)}`);
      else dispatch(group, at + 1, `${indent}    `);
      line(`${indent}    break;`);
    }
    line(`${indent}}`);
  };
  const named = trieKeys.map((_, n) => n).filter((n) => (trieKeys[n] as string).length > 0);
  if (named.length > 0) dispatch(named, 0, '    ');
}
