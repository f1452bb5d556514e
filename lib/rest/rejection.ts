import * as E from 'fp-ts/Either';
import { ErrorBodyCodec } from '../codecs/errorBody';
import { decodeWith } from '../codecs/decode';
import { RateLimitedError, RequestRejectedError } from '../errors';
import { excerpt, redact } from '../internal/redact';
import { retryAfterMs } from '../internal/retryAfter';
import { parseBody } from './parseBody';

/**
 * `retryAfterMs` of a 429 answer without a usable `Retry-After` header, and of a rate limit answered with a body
 * code: one minute, as HashKey's "Get Started" pages ask ("Please wait 1 minute for the suspended period to
 * expire"). @internal
 */
export const DEFAULT_RETRY_AFTER_429_MS = 60_000;
/**
 * The service's codes for a rate limit answered as a plain rejection (HTTP 400 with the code in the body):
 * `0003` ("Rate limit exceeded", HashKey Exchange "Error Codes"), `-1015` (TOO_MANY_ORDERS of the BHEX family:
 * "Reach the rate limit"), `-3145` and `-1193` (taken as rate limits by ccxt's hashkey; docs/hashkey.md says
 * which are verified). Compared as text. @internal
 */
export const RATE_LIMIT_CODES: ReadonlySet<string> = new Set(['0003', '-1015', '-3145', '-1193']);

const isRateLimitCode = (code: number | string | undefined): boolean => {
  if (code === undefined) return false;
  if (typeof code === 'string') return RATE_LIMIT_CODES.has(code.trim());
  return RATE_LIMIT_CODES.has(String(code)) || (code === 3 && RATE_LIMIT_CODES.has('0003'));
};
/** `retryAfterMs` of a 418 answer (an IP ban) without a usable `Retry-After` header. @internal */
export const DEFAULT_RETRY_AFTER_418_MS = 120_000;
/** Longest excerpt of a non-JSON error body kept as `msg`. @internal */
export const BODY_EXCERPT_LENGTH = 120;

/** What {@link rejection} reads of an answer. @internal */
export interface RejectedAnswer {
  readonly status: number;
  readonly text: string;
  readonly secrets: readonly (string | undefined)[];
  /** The `Retry-After` header, if any. */
  readonly retryAfter?: string;
  /** The scheduler's time when the answer arrived (an HTTP-date `Retry-After` is relative to it). */
  readonly receivedAt: number;
}

/** A non-JSON body (an HTML error page, a proxy's text) as one short redacted line: tags dropped, spaces collapsed. */
function bodyExcerpt(text: string, secrets: readonly (string | undefined)[]): string | undefined {
  // Redacted whole before any cut, so no part of a secret survives at a cut.
  const clean = redact(text, secrets);
  const head = clean.length > 4 * BODY_EXCERPT_LENGTH ? clean.slice(0, 4 * BODY_EXCERPT_LENGTH) : clean;
  const line = head
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (line === '') return undefined;
  return line.length > BODY_EXCERPT_LENGTH || head !== clean ? `${line.slice(0, BODY_EXCERPT_LENGTH)}…` : line;
}

/**
 * The {@link RequestRejectedError} for an answer: `code` (number or text, as sent) and `msg` (or `desc`) from
 * an error body when there is one, else a short redacted excerpt of the text as `msg` (HTML reduced to its
 * words); `fallbackMsg` when the body says nothing. 429, 418 and a 4xx whose code is one of
 * {@link RATE_LIMIT_CODES} give a {@link RateLimitedError} whose `retryAfterMs` comes from `Retry-After`, else
 * {@link DEFAULT_RETRY_AFTER_429_MS} / {@link DEFAULT_RETRY_AFTER_418_MS}.
 * @internal
 */
export function rejection(answer: RejectedAnswer, fallbackMsg?: string): RequestRejectedError {
  const { status, text, secrets } = answer;
  const parsed = parseBody(text, secrets);
  const body = E.isRight(parsed) ? decodeWith(ErrorBodyCodec, parsed.right) : undefined;
  let code: number | string | undefined;
  let msg: string | undefined;
  if (body && E.isRight(body)) {
    code = typeof body.right.code === 'string' ? redact(body.right.code, secrets) : body.right.code;
    const message = body.right.msg ?? body.right.desc ?? fallbackMsg;
    msg = message === undefined ? undefined : excerpt(redact(message, secrets), secrets);
  } else {
    msg = fallbackMsg ?? bodyExcerpt(text, secrets);
  }
  if (status === 429 || status === 418 || (status >= 400 && status < 500 && isRateLimitCode(code))) {
    const wait = retryAfterMs(answer.retryAfter, answer.receivedAt) ??
      (status === 418 ? DEFAULT_RETRY_AFTER_418_MS : DEFAULT_RETRY_AFTER_429_MS);
    return new RateLimitedError(status, wait, code, msg);
  }
  return new RequestRejectedError(status, code, msg);
}

/** The service's error code as a number (`-1021`, `"-1021"` → -1021), else `undefined`. @internal */
export function numericCode(code: number | string | undefined): number | undefined {
  if (typeof code === 'number') return code;
  if (typeof code === 'string' && /^-?\d+$/.test(code.trim())) return Number(code.trim());
  return undefined;
}
