import * as E from 'fp-ts/Either';
import { parseJson } from '../frame/json';
import { isRecord } from '../internal/guards';

/**
 * Which stream of the test exchange a socket belongs to: `public` (market data, `/quote/ws/v1`) or `private`
 * (user data, `/api/v1/ws/{listenKey}`).
 *
 * @example
 * ```ts
 * import type { ExchangeStream, TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * const stream: ExchangeStream = 'public';
 * exchange.drop({ stream, at: 40 });
 * ```
 */
export type ExchangeStream = 'public' | 'private';

/**
 * What a client frame was: a subscription (`sub`), an unsubscription (`cancel`, `cancel_all`), a heartbeat
 * (`ping`, `pong`), or anything else (`other`, including text that is not JSON).
 *
 * @example
 * ```ts
 * import type { SentFrameKind, TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * const kinds: SentFrameKind[] = ['sub', 'cancel'];
 * exchange.sent().filter((f) => kinds.includes(f.kind));
 * ```
 */
export type SentFrameKind = 'sub' | 'cancel' | 'cancel_all' | 'ping' | 'pong' | 'other';

/**
 * One frame the client sent to the test exchange, with its virtual time.
 *
 * @example
 * ```ts
 * import type { TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.sent({ kind: 'sub' });
 * // [{ time: 0, stream: 'public', connection: 1, kind: 'sub',
 * //    frame: { symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 1 }, text: '{"symbol":…}' }]
 * ```
 */
export interface SentFrame {
  /** Virtual time (scheduler ms) at which the client sent it. */
  readonly time: number;
  readonly stream: ExchangeStream;
  /** Which connection of that stream: 1 for the first socket that opened, 2 for the next, … (the epoch). */
  readonly connection: number;
  readonly kind: SentFrameKind;
  /** The frame JSON-decoded (the raw text when it is not JSON). */
  readonly frame: unknown;
  /** The frame as sent. */
  readonly text: string;
}

/**
 * Selects recorded frames: every given field must match (`symbol` and `topic` compare with the frame's
 * own fields, so they select subscription frames; `symbol` matches a batched frame that names it among its
 * comma-joined symbols).
 *
 * @example
 * ```ts
 * import type { TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.sent({ stream: 'public', kind: 'sub', topic: 'depth', connection: 2 }); // resubscription after a drop
 * ```
 */
export interface SentFrameFilter {
  readonly stream?: ExchangeStream | undefined;
  readonly kind?: SentFrameKind | undefined;
  readonly connection?: number | undefined;
  readonly symbol?: string | undefined;
  readonly topic?: string | undefined;
}


/** Decodes and classifies one client frame. @internal */
export function classifyFrame(text: string): { kind: SentFrameKind; frame: unknown } {
  const parsed = parseJson(text);
  if (E.isLeft(parsed)) return { kind: 'other', frame: text };
  const frame = parsed.right;
  if (!isRecord(frame)) return { kind: 'other', frame };
  if (frame['ping'] !== undefined) return { kind: 'ping', frame };
  if (frame['pong'] !== undefined) return { kind: 'pong', frame };
  const event = frame['event'];
  if (event === 'sub' || event === 'cancel' || event === 'cancel_all') return { kind: event, frame };
  return { kind: 'other', frame };
}

/** Whether `sent` matches every field of `filter`. @internal */
export function matchesFilter(sent: SentFrame, filter: SentFrameFilter): boolean {
  if (filter.stream !== undefined && sent.stream !== filter.stream) return false;
  if (filter.kind !== undefined && sent.kind !== filter.kind) return false;
  if (filter.connection !== undefined && sent.connection !== filter.connection) return false;
  const frame = isRecord(sent.frame) ? sent.frame : {};
  if (filter.symbol !== undefined && !symbolsOf(frame).includes(filter.symbol)) return false;
  if (filter.topic !== undefined && frame['topic'] !== filter.topic) return false;
  return true;
}

/** The symbols a request frame names: its `symbol`, comma-joined when batched (`"BTCUSDT,ETHUSDT"`). @internal */
export function symbolsOf(frame: Readonly<Record<string, unknown>>): string[] {
  return String(frame['symbol']).split(',');
}
