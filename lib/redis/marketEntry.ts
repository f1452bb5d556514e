/**
 * The one declaration of a Redis market stream entry (notes/scaling.md, "Key layout and why"): what the gateway writes
 * (`entryFields`) and what the consumer reads (`readEntry`), side by side so they cannot drift. An entry is a flat
 * list of field/value pairs (`XADD key id field value ...`):
 *
 * | kind | fields |
 * |---|---|
 * | data message | `s` symbol, `c` request topic (`kline_1m`), `n` shard sequence, `r` receive time (ms), `p` the id of the previous frame of that topic (below), `f` frame text |
 * | `k=epoch` | `n`, `r`, `e` venue connection epoch, `o` `1` open / `0` closed |
 * | `k=gap` | `n`, `r`, `a` from (ms), `b` to (ms), `d` frames dropped, `w` why (`redis` / `venue`), `s` symbol (venue trade gaps) |
 * | `k=start` | `n` (restarts at 1), `r` |
 *
 * The gateway also publishes each entry on a channel named as its stream (a single Redis; `pushPayload`): `id|len,len,…|`
 * then the fields' texts end to end, each `len` the length of one field in UTF-8 bytes (`readPush` reads the bytes).
 *
 * Data entries carry no `k` (the cheapest: the common entry is the shortest). `p` is the stream id of the frame of the same
 * topic and symbol the gateway received before this one: absent for the first since the gateway started, `0-0`
 * when that frame could not be written (dropped). A consumer that delivered another id last knows that frames of
 * this very topic are missing, whatever the cause (trimmed, lost by Redis, dropped by the gateway).
 *
 * @internal
 * @module
 */
import { skipDigits } from '../decimal/grammar';

/** What every entry carries: its place in the shard's sequence and the gateway's receive time. @internal */
interface EntryBase {
  /** Per-shard sequence number, from 1 after each gateway start. */
  readonly seq: number;
  /** When the gateway received (or decided) it, ms on its scheduler's clock. */
  readonly receivedAt: number;
}

/** A market data frame as the venue sent it. @internal */
export interface MessageEntry extends EntryBase {
  readonly kind: 'message';
  readonly symbol: string;
  /** The request topic: `trade`, `depth`, `realtimes`, `kline_1m`, ... */
  readonly topic: string;
  /** The frame's text, verbatim. */
  readonly frame: string;
  /** The id of the previous frame of this topic and symbol (`0-0`: it was dropped; absent: none since the gateway started). */
  readonly prev?: string | undefined;
}

/** The gateway's venue connection opened or closed (epoch `epoch`). @internal */
export interface EpochEntry extends EntryBase {
  readonly kind: 'epoch';
  readonly epoch: number;
  readonly open: boolean;
}

/** Frames the gateway could not write (`redis`), or a venue trade gap it saw (`venue`). @internal */
export interface GapEntry extends EntryBase {
  readonly kind: 'gap';
  readonly reason: 'redis' | 'venue';
  readonly fromMs: number;
  readonly toMs: number;
  readonly dropped: number;
  readonly symbol?: string | undefined;
}

/** The gateway (re)started: its sequence restarts. @internal */
export interface StartEntry extends EntryBase {
  readonly kind: 'start';
}

/** Any entry of a shard stream. @internal */
export type MarketEntry = MessageEntry | EpochEntry | GapEntry | StartEntry;

/** The flat field/value list of `entry`, for `XADD`. @internal */
export function entryFields(entry: MarketEntry): string[] {
  const head = ['n', String(entry.seq), 'r', String(entry.receivedAt)];
  switch (entry.kind) {
    case 'message':
      return entry.prev === undefined
        ? ['s', entry.symbol, 'c', entry.topic, ...head, 'f', entry.frame]
        : ['s', entry.symbol, 'c', entry.topic, ...head, 'p', entry.prev, 'f', entry.frame];
    case 'epoch':
      return ['k', 'epoch', ...head, 'e', String(entry.epoch), 'o', entry.open ? '1' : '0'];
    case 'gap': {
      const fields = ['k', 'gap', ...head, 'a', String(entry.fromMs), 'b', String(entry.toMs), 'd', String(entry.dropped), 'w', entry.reason];
      return entry.symbol === undefined ? fields : [...fields, 's', entry.symbol];
    }
    case 'start':
      return ['k', 'start', ...head];
    default: {
      const never: never = entry;
      return never;
    }
  }
}

/** A non-negative safe integer written as decimal text (1-15 digits), else `undefined`. */
function count(text: string | undefined): number | undefined {
  return text !== undefined && digitsOnly(text, 0, text.length, 15) ? Number(text) : undefined;
}

/** Whether `text` runs of 1 to `most` digits from `start` to `end`. */
function digitsOnly(text: string, start: number, end: number, most: number): boolean {
  return end > start && end - start <= most && skipDigits(text, start, end) === end;
}

/** Whether `text` could be a venue frame: a JSON object's text (its first and last characters; the frame is parsed later). */
function objectText(text: string): boolean {
  return text.length >= 2 && text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d;
}

/** Whether `text` is a stream id, `ms-seq` (1-20 digits each). */
function isStreamId(text: string): boolean {
  const dash = text.indexOf('-');
  return dash > 0 && digitsOnly(text, 0, dash, 20) && digitsOnly(text, dash + 1, text.length, 20);
}

/**
 * A message entry as a consumer reads it: made by `new`, not as an object literal, as is a push read (`Pushed`) and
 * the fields of a push (`FIELDS`, one array reused). V8 judges each object literal's site by how many of its objects
 * survive a scavenge (a long `XREAD` reply handled, a consumer's start) and may from then on make them in the old
 * generation ("allocation-site pretenuring"), where each, dead at once, keeps its young frame text alive through the
 * scavenges until the next full GC: in one consumer process of two, every frame was promoted (16-17 MB per 10 s at
 * issue 28's venue against 1 MB; its scavenges 3-22 ms against 2; every process at 4.6 MB with
 * `--no-allocation-site-pretenuring`). Objects made by `new` are never pretenured.
 */
class ReadMessage implements MessageEntry {
  readonly kind = 'message' as const;
  constructor(
    readonly seq: number,
    readonly receivedAt: number,
    readonly symbol: string,
    readonly topic: string,
    readonly frame: string,
    readonly prev: string | undefined,
  ) {}
}

/**
 * The entry of a field/value list read from Redis, or `undefined` when it is not one (a field missing or out of
 * shape: the consumer reports it and counts it as a gap). Never throws. Fields are read into locals (the last of a
 * field named twice wins), with no object or pattern per entry: it runs for every entry a consumer reads.
 * @internal
 */
export function readEntry(flat: readonly unknown[]): MarketEntry | undefined {
  let k: string | undefined;
  let n: string | undefined;
  let r: string | undefined;
  let s: string | undefined;
  let c: string | undefined;
  let f: string | undefined;
  let p: string | undefined;
  let e: string | undefined;
  let o: string | undefined;
  let a: string | undefined;
  let b: string | undefined;
  let d: string | undefined;
  let w: string | undefined;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const key = flat[i];
    const value = flat[i + 1];
    if (typeof key !== 'string' || typeof value !== 'string' || key.length !== 1) continue;
    switch (key) {
      case 'k': k = value; break;
      case 'n': n = value; break;
      case 'r': r = value; break;
      case 's': s = value; break;
      case 'c': c = value; break;
      case 'f': f = value; break;
      case 'p': p = value; break;
      case 'e': e = value; break;
      case 'o': o = value; break;
      case 'a': a = value; break;
      case 'b': b = value; break;
      case 'd': d = value; break;
      case 'w': w = value; break;
      default:
    }
  }
  const seq = count(n);
  const receivedAt = count(r);
  if (seq === undefined || receivedAt === undefined) return undefined;
  switch (k) {
    case undefined: {
      if (s === undefined || c === undefined || f === undefined || !objectText(f)) return undefined;
      if (p !== undefined && !isStreamId(p)) return undefined;
      return new ReadMessage(seq, receivedAt, s, c, f, p);
    }
    case 'epoch': {
      const epoch = count(e);
      if (epoch === undefined || (o !== '1' && o !== '0')) return undefined;
      return { kind: 'epoch', seq, receivedAt, epoch, open: o === '1' };
    }
    case 'gap': {
      const fromMs = count(a);
      const toMs = count(b);
      const dropped = count(d);
      if (fromMs === undefined || toMs === undefined || dropped === undefined || (w !== 'redis' && w !== 'venue')) return undefined;
      return { kind: 'gap', seq, receivedAt, reason: w, fromMs, toMs, dropped, symbol: s };
    }
    case 'start':
      return { kind: 'start', seq, receivedAt };
    default:
      return undefined;
  }
}

/**
 * The text published for the entry `id` of `fields` (see the module): `id|len,len,…|` then the fields end to end, each
 * `len` the field's length in UTF-8 bytes (a consumer decodes each field from the bytes it received: one flat string
 * each, which its parser reads fastest). @internal
 */
export function pushPayload(id: string, fields: readonly string[]): string {
  let lengths = '';
  let texts = '';
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const bytes = Buffer.byteLength(f);
    lengths += i === 0 ? String(bytes) : `,${bytes}`;
    texts += f;
  }
  return `${id}|${lengths}|${texts}`;
}

/** A published entry read back: its id and entry (`undefined`: its fields are not an entry). @internal */
export interface PushedEntry {
  readonly id: string;
  readonly entry: MarketEntry | undefined;
}

/** A {@link PushedEntry} made by `new` (see `ReadMessage`). */
class Pushed implements PushedEntry {
  constructor(
    readonly id: string,
    readonly entry: MarketEntry | undefined,
  ) {}
}

/** The fields of the push being read: one array for every push (see `ReadMessage`), emptied once it is read. */
const FIELDS: string[] = [];

const BAR = 0x7c;
const COMMA = 0x2c;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * The entry of a published text as received (its UTF-8 bytes), or `undefined` when it is not one at all (no stream id,
 * lengths that do not add up to its size). Never throws.
 * @internal
 */
export function readPush(payload: Buffer): PushedEntry | undefined {
  const bar = payload.indexOf(BAR);
  const end = bar < 0 ? -1 : payload.indexOf(BAR, bar + 1);
  if (end < 0 || bar > 41) return undefined;
  const id = payload.toString('latin1', 0, bar);
  if (!isStreamId(id)) return undefined;
  if (end === bar + 1) return end + 1 === payload.length ? new Pushed(id, undefined) : undefined; // no field
  const flat = FIELDS;
  flat.length = 0;
  let at = end + 1;
  let length = 0;
  let digits = 0;
  for (let i = bar + 1; i <= end; i++) {
    const c = payload[i]!;
    if (c >= DIGIT_0 && c <= DIGIT_9 && digits < 9) {
      length = length * 10 + (c - DIGIT_0);
      digits++;
      continue;
    }
    if ((c !== COMMA && i !== end) || digits === 0 || at + length > payload.length) {
      flat.length = 0;
      return undefined;
    }
    flat.push(payload.toString('utf8', at, at + length));
    at += length;
    length = 0;
    digits = 0;
  }
  const whole = at === payload.length;
  const entry = whole ? readEntry(flat) : undefined;
  flat.length = 0;
  return whole ? new Pushed(id, entry) : undefined;
}
