import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { DecodeError } from '../errors';
import { KlineRecordCodec } from '../codecs/kline';
import { ExchangeInfoCodec } from '../codecs/rest/exchangeInfo';
import { excerpt } from '../internal/redact';
import type { RecordingCorruptError } from './recordingErrors';

/**
 * Recordings: the one declaration of a recorded line (the recorder of `ex-streams/node` writes it, `loadRecording`
 * reads it, `replayMarket` and `exchange.server.replay` play it). A recording file is gzip of one line per event: a
 * JSON object, `t` the receive time (ms, the recorder's scheduler clock), `k` the kind; since format 2, a text frame's
 * line is its head `{"t":…,"k":"f"}`, a tab, and the frame's text as received (no escaping); since format 3, every
 * block of lines is followed by a check line (`{"t":…,"k":"check","lines":…,"crc":…}`, the CRC-32 of the block's
 * bytes), which the loader verifies before it delivers any line of the block. See docs/history-and-replay.md.
 */

/**
 * The format the recorder writes (the `start` line's `v`): 3, text frames as head, tab, text, and a checksum line
 * after each block of lines. Formats 1 and 2 are still read (each file checked whole by gzip's own checksum).
 * @internal
 */
export const RECORDING_FORMAT = 3;

/** The format versions the loader reads. @internal */
export const RECORDING_FORMATS: readonly number[] = [1, 2, 3];

/** Every recorded line: `t` (receive time, ms) and `k` (kind) first. */
const line = <K extends string, P extends t.Props>(k: K, props: P, name: string) =>
  t.type({ t: t.number, k: t.literal(k), ...props }, name);

/** The usual line, a text frame: read first (one `t.type` check) before the whole union. @internal */
const RecordedTextFrameCodec = line('f', { d: t.string }, 'RecordedTextFrame');

/** The head of a text frame's line in format 2 (`{"t":…,"k":"f"}`, then a tab and the frame's text). @internal */
const RecordedFrameHeadCodec = line('f', {}, 'RecordedFrameHead');

/**
 * The io-ts declaration of a recorded line (one JSON object per line of a recording file). Kinds:
 * - `start`: the first line of every file: format version `v` (3; files of formats 1 and 2 are read alike), `stream`
 *   (`public` | `private`), and what was subscribed;
 * - `f`: a text frame as received (`d`: its text; in a file of format 2 written as the line's head `{"t":…,"k":"f"}`,
 *   a tab and the text itself, unless the text holds a line break); `b`: a binary frame (`d`: its bytes in base64);
 * - `open`: the socket opened, the connection's `epoch` (1 for the first socket that opened);
 * - `close`: the socket closed (`code`, `clean`; the reason is not kept: it may hold anything);
 * - `gap`: a gap signal of the live streams (`gaps$`: `kind: 'trade'`; `klineGaps$`: `kind: 'kline'`; a user stream's
 *   `gaps$`: `kind: 'user'`);
 * - `exchangeInfo`: the pairs' rules at the start (`GET /api/v1/exchangeInfo`, decoded: `info`), written by
 *   `recordMarket({ rest })`; a replay exposes them (`exchangeInfo`, `symbolRules`);
 * - `klines`: a kline topic's candles before the recording's first live one (`GET /quote/v1/klines`, decoded records),
 *   written by `recordMarket({ rest })`: a replay's `klines(…, { history })` is answered from them.
 *
 * @example
 * ```ts
 * import { RecordedEventCodec } from 'ex-streams/testing';
 * RecordedEventCodec.is({ t: 1700000000000, k: 'open', epoch: 1 }); // true
 * RecordedEventCodec.is({ t: 1700000000000, k: 'f', d: '{"pong":1}' }); // true
 * ```
 */
export const RecordedEventCodec = t.union(
  [
    line('start', { v: t.union([t.literal(1), t.literal(2), t.literal(3)]), stream: t.union([t.literal('public'), t.literal('private')]), symbols: t.array(t.string), topics: t.array(t.string) }, 'RecordedStart'),
    RecordedTextFrameCodec,
    line('b', { d: t.string }, 'RecordedBinaryFrame'),
    line('open', { epoch: t.number }, 'RecordedOpen'),
    line('close', { code: t.number, clean: t.boolean }, 'RecordedClose'),
    line('gap', { kind: t.literal('trade'), symbol: t.string, lastSeenId: t.string, firstNewId: t.string, epoch: t.number }, 'RecordedTradeGap'),
    line('gap', { kind: t.literal('kline'), symbol: t.string, interval: t.string, firstLiveTime: t.number, missing: t.number }, 'RecordedKlineGap'),
    line('gap', { kind: t.literal('user'), epoch: t.number, downSince: t.number, reconnectedAt: t.number, keyChanged: t.boolean }, 'RecordedUserGap'),
    line('exchangeInfo', { info: ExchangeInfoCodec }, 'RecordedExchangeInfo'),
    line('klines', { symbol: t.string, interval: t.string, candles: t.array(KlineRecordCodec) }, 'RecordedKlines'),
  ],
  'RecordedEvent',
);

/**
 * One recorded line, decoded (see {@link RecordedEventCodec}).
 *
 * @example
 * ```ts
 * import type { RecordedEvent } from 'ex-streams/testing';
 * const frame: RecordedEvent = { t: 1700000000000, k: 'f', d: '{"symbol":"BTCUSDT","topic":"trade","data":[]}' };
 * ```
 */
export type RecordedEvent = t.TypeOf<typeof RecordedEventCodec>;

/**
 * A line of a recording that could not be read (cut JSON, a shape that is not a {@link RecordedEvent}), or a damaged
 * part refused before any of it was delivered (a `RecordingCorruptError`: a block that fails its checksum, gzip data
 * that cannot be read, a time outside the recording's span): where it was and the time of the last good line before
 * it (replays report it then, on `errors$`).
 *
 * @example
 * ```ts
 * import { DecodeError } from 'ex-streams';
 * import type { CorruptLine } from 'ex-streams/testing';
 * const bad: CorruptLine = { file: 'market-0001.jsonl.gz', line: 42, afterTime: 1700000000000, error: new DecodeError('json', 'cut short') };
 * ```
 */
export interface CorruptLine {
  /** The file's name (no directory). */
  readonly file: string;
  /** 1-based line number in the file (of a damaged part: its first line, the first line not delivered). */
  readonly line: number;
  /** Receive time of the last good line before it (or of the recording's start). */
  readonly afterTime: number;
  /** What was wrong: a `DecodeError` (kind `json` or `codec`: one unreadable line) or a `RecordingCorruptError`. */
  readonly error: DecodeError | RecordingCorruptError;
}

/**
 * A recording in memory: what `loadRecording` (`ex-streams/node`) reads from files, and what
 * {@link replayMarket} and `exchange.server.replay` take. Plain data: build one by hand in a test, or
 * take a slice (`{ ...recording, events: recording.events.slice(a, b) }`).
 *
 * @example
 * ```ts
 * import type { Recording } from 'ex-streams/testing';
 * const recording: Recording = {
 *   events: [
 *     { t: 1000, k: 'open', epoch: 1 },
 *     { t: 1005, k: 'f', d: '{"symbol":"BTCUSDT","topic":"trade","params":{},"data":[{"v":"1","t":1005,"p":"1","q":"1","m":true}],"f":true,"sendTime":1005}' },
 *     { t: 2000, k: 'close', code: 1000, clean: true },
 *   ],
 *   corrupt: [],
 * };
 * ```
 */
export interface Recording {
  /** The lines, in receive order (files concatenated in order). */
  readonly events: readonly RecordedEvent[];
  /** Lines that could not be read. Default none. */
  readonly corrupt?: readonly CorruptLine[] | undefined;
}

/**
 * A recording read as it is played: its lines in order, each a {@link RecordedEvent} or, for a line that could not be
 * read, a {@link CorruptLine} in its place. `loadRecording(dir, { lazy: true })` (`ex-streams/node`) makes one whose
 * `lines` read the files as they are iterated (a recorded day, one chunk of text in memory at a time);
 * {@link replayMarket} pulls them one at a time while it plays. Any `Iterable` will do (an array, a generator), as
 * long as each iteration starts from the first line again.
 *
 * @example
 * ```ts
 * import { VirtualTimeScheduler } from 'rxjs';
 * import { replayMarket } from 'ex-streams/testing';
 * function* lines() {
 *   yield { t: 1000, k: 'open', epoch: 1 } as const;
 *   yield { t: 2000, k: 'close', code: 1000, clean: true } as const;
 * }
 * const scheduler = new VirtualTimeScheduler(undefined, Infinity);
 * replayMarket({ lines: { [Symbol.iterator]: lines } }, { scheduler }).ended$.subscribe(() => console.log('over at', scheduler.now())); // 1000
 * ```
 */
export interface LazyRecording {
  /** The lines, in receive order: an event, or a {@link CorruptLine} where a line could not be read. */
  readonly lines: Iterable<RecordedEvent | CorruptLine>;
}

/** Whether `line`, read from a {@link LazyRecording}, is a {@link CorruptLine}. @internal */
export const isCorruptLine = (line: RecordedEvent | CorruptLine): line is CorruptLine => 'error' in line;

/**
 * The text of one recorded line (no newline): a text frame without a line break as its head `{"t":…,"k":"f"}`, a tab
 * and its text (format 2: a book of 10 KB is written as received, not escaped into a JSON string: half the recorder's
 * CPU on books, measured in spec/bench/replay.ts); anything else as `JSON.stringify` of the event, `t` and `k` first.
 * @internal
 */
export function recordedLine(event: RecordedEvent): string {
  if (event.k === 'f' && !event.d.includes('\n')) return `{"t":${JSON.stringify(event.t)},"k":"f"}\t${event.d}`;
  return JSON.stringify(event);
}

/**
 * Reads one recorded line (format 1 or 2): the event, or a `DecodeError` (kind `json` for text that is not JSON,
 * `codec` for a shape that is not a {@link RecordedEvent}). Never throws. The frame text in a bad line is not repeated
 * beyond an excerpt.
 * @internal
 */
export function readRecordedLine(text: string): E.Either<DecodeError, RecordedEvent> {
  // format 2's text frame: the head's first `}` is followed by a tab (never so in a JSON line: a tab is escaped there)
  const head = text.indexOf('}');
  const framed = head > 0 && text.charCodeAt(head + 1) === 9; /* \t */
  let value: unknown;
  try {
    value = JSON.parse(framed ? text.slice(0, head + 1) : text);
  } catch (e) {
    return E.left(new DecodeError('json', `recording line is not JSON: ${e instanceof Error ? e.message : String(e)}`, [], excerpt(text)));
  }
  if (framed) {
    if (RecordedFrameHeadCodec.is(value)) return E.right({ t: value.t, k: 'f', d: text.slice(head + 2) });
  } else if (RecordedTextFrameCodec.is(value) || RecordedEventCodec.is(value)) return E.right(value);
  const k = typeof value === 'object' && value !== null ? (value as { k?: unknown }).k : undefined;
  return E.left(new DecodeError('codec', `recording line is not a RecordedEvent (k: ${excerpt(String(k), undefined, 20)})`, [], excerpt(text)));
}
