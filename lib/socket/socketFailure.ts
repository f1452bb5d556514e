import { ConfigError, type ConnectionClosedDetails, ConnectionClosedError, type ConnectionFailure } from '../errors';
import { redact } from '../internal/redact';
import { retryAfterMs } from '../internal/retryAfter';
import type { WebSocketCloseEventLike } from './webSocketLike';

/** What a transport error told (the `ws` error event's `Error`): the kind, the runtime's code and words. @internal */
export interface TransportError {
  readonly failure: ConnectionFailure;
  readonly httpStatus?: number;
  /** The upgrade answer's `Retry-After`, in ms (see {@link upgradeAnswer}). */
  readonly retryAfterMs?: number;
  readonly errorCode?: string;
  readonly detail: string;
}

/** Longest runtime description kept in an error, in UTF-16 code units. */
const MAX_DETAIL_LENGTH = 200;
/** Longest address kept in an error. */
const MAX_ADDRESS_LENGTH = 200;

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT']);
/** `ws`'s words for an upgrade answered with an HTTP status. */
const UNEXPECTED_RESPONSE = /^Unexpected server response: (\d{3})$/;

function classify(errorCode: string | undefined, message: string): Pick<TransportError, 'failure' | 'httpStatus'> {
  const status = UNEXPECTED_RESPONSE.exec(message)?.[1];
  if (status !== undefined) return { failure: 'http-status', httpStatus: Number(status) };
  if (errorCode === 'ECONNREFUSED') return { failure: 'refused' };
  if (errorCode !== undefined && DNS_CODES.has(errorCode)) return { failure: 'dns' };
  if (errorCode !== undefined && RESET_CODES.has(errorCode)) return { failure: 'reset' };
  if ((errorCode !== undefined && TIMEOUT_CODES.has(errorCode)) || /timed out/i.test(message)) return { failure: 'timeout' };
  if (errorCode?.startsWith('WS_ERR_')) return { failure: 'protocol' };
  return { failure: 'network' };
}

/**
 * The transport error carried by a websocket `error` event: `ws` hands an `ErrorEvent` whose `error` is the
 * Node `Error` (`code` ECONNREFUSED, `message` "Unexpected server response: 404", …); a browser's error event
 * carries nothing, so `undefined`. Text is redacted with the address's `secrets` and cut short. Never throws.
 * @internal
 */
export function transportError(event: unknown, secrets: readonly string[]): TransportError | undefined {
  try {
    // Read by shape, not `instanceof Error`: Node's own errors (ECONNREFUSED) may come from another realm.
    const error = (event as { error?: unknown } | null | undefined)?.error as { code?: unknown; message?: unknown } | null | undefined;
    if (typeof error !== 'object' || error === null || typeof error.message !== 'string') return undefined;
    const rawCode = error.code;
    const errorCode = typeof rawCode === 'string' && /^[A-Z0-9_]{1,40}$/.test(rawCode) ? rawCode : undefined;
    const message = error.message;
    const detail = cut(redact(message, secrets), MAX_DETAIL_LENGTH);
    const kind = classify(errorCode, message);
    return errorCode === undefined ? { ...kind, detail } : { ...kind, errorCode, detail };
  } catch {
    return { failure: 'network', detail: 'unreadable error event' };
  }
}

/**
 * An HTTP answer to the websocket upgrade (what `ws` hands its `'unexpected-response'` listeners: Node's
 * `IncomingMessage`), read by shape: its status, and the wait its `Retry-After` header asks for (seconds or an
 * HTTP date, relative to `now`, the scheduler's time). The detail is `ws`'s own words for it. `undefined` when
 * it has no status. Never throws.
 * @internal
 */
export function upgradeAnswer(response: unknown, now: number): TransportError | undefined {
  try {
    const r = response as { statusCode?: unknown; headers?: Record<string, unknown> } | null | undefined;
    const status = r?.statusCode;
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 999) return undefined;
    const header = r?.headers?.['retry-after'];
    const wait = typeof header === 'string' ? retryAfterMs(header, now) : undefined;
    const answer = { failure: 'http-status', httpStatus: status, detail: `Unexpected server response: ${status}` } as const;
    return wait === undefined ? answer : { ...answer, retryAfterMs: wait };
  } catch {
    return undefined;
  }
}

/** `scheme://user:password@`: the user and password are dropped from an address shown. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;
/** The path segment after `/ws/`: the private stream's listen key, or the public stream's version (`v1`). */
const WS_SEGMENT = /\/ws\/([^/?#\s]+)/;
/** A version segment (`/quote/ws/v1`), shown as is; any other `/ws/` segment is taken for a listen key. */
const VERSION_SEGMENT = /^v\d{1,3}$/;

/**
 * An address fit for an error: user and password dropped, the segment after `/ws/` replaced with `***`
 * unless it is a version (`/quote/ws/v1` stays readable, `/api/v1/ws/<key>` reads `/api/v1/ws/***`), the
 * rest redacted (key-like query values, opaque tokens, the given secrets), cut short. @internal
 */
export function displayAddress(url: string, secrets: readonly string[]): string {
  const bare = url.replace(USERINFO, '$1');
  const match = WS_SEGMENT.exec(bare);
  if (match === null) return cut(redact(bare, secrets), MAX_ADDRESS_LENGTH);
  const segment = match[1] ?? '';
  const start = match.index + '/ws/'.length;
  const shown = VERSION_SEGMENT.test(segment) ? segment : '***';
  return cut(redact(bare.slice(0, start), secrets) + shown + redact(bare.slice(start + segment.length), secrets), MAX_ADDRESS_LENGTH);
}

/**
 * The error of a closed socket. A socket that opened and was closed by the peer without a transport error
 * keeps the plain error (its code and reason are the peer's word). A socket that never opened, or one the
 * runtime reported an error on, gets the details: what failed (`failure`) and where (the redacted address).
 * @internal
 */
export function closedError(
  event: WebSocketCloseEventLike,
  reason: string,
  opened: boolean,
  transport: TransportError | undefined,
  address: string,
): ConnectionClosedError {
  if (opened && transport === undefined) return new ConnectionClosedError(event.code, reason, event.wasClean);
  const details: ConnectionClosedDetails = transport ?? { failure: 'closed' };
  return new ConnectionClosedError(event.code, reason, event.wasClean, { ...details, address });
}

/**
 * A websocket constructor that threw (`ws` and browsers throw a `SyntaxError` for an address they cannot
 * use: a wrong scheme, a fragment, no host) as a `ConfigError` on `url`: the user's own mistake, which ends
 * the stream instead of being retried, with the address and the runtime's words redacted (the thrown
 * message repeats the address, listen key included). @internal
 */
export function unusableAddress(thrown: unknown, address: string, secrets: readonly string[]): ConfigError {
  let text: string;
  try {
    text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : typeof thrown;
  } catch {
    text = 'unknown error';
  }
  return new ConfigError('url', `${address} cannot be opened as a websocket (${cut(redact(text, secrets), MAX_DETAIL_LENGTH)})`);
}
