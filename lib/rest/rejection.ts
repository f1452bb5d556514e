import * as E from 'fp-ts/Either';
import { ErrorBodyCodec } from '../codecs/errorBody';
import { decodeWith } from '../codecs/decode';
import { RequestRejectedError } from '../errors';
import { excerpt, redact } from '../internal/redact';
import { parseBody } from './parseBody';

/**
 * The {@link RequestRejectedError} for an answer: `code` and `msg` (or `desc`) from an error body when there
 * is one, else a redacted excerpt of the text as `msg`; `fallbackMsg` when the body says nothing.
 * @internal
 */
export function rejection(
  status: number,
  text: string,
  secrets: readonly (string | undefined)[],
  fallbackMsg?: string,
): RequestRejectedError {
  const parsed = parseBody(text, secrets);
  const body = E.isRight(parsed) ? decodeWith(ErrorBodyCodec, parsed.right) : undefined;
  if (body && E.isRight(body)) {
    const { code, msg, desc } = body.right;
    const message = msg ?? desc ?? fallbackMsg;
    return new RequestRejectedError(
      status,
      typeof code === 'string' ? redact(code, secrets) : code,
      message === undefined ? undefined : redact(message, secrets),
    );
  }
  if (fallbackMsg !== undefined) return new RequestRejectedError(status, undefined, fallbackMsg);
  return new RequestRejectedError(status, undefined, text.trim() === '' ? undefined : excerpt(text.trim(), secrets));
}
