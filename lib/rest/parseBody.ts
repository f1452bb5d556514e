import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import { decodeWith } from '../codecs/decode';
import { parseJson } from '../frame/json';
import { redact } from '../internal/redact';
import type * as t from 'io-ts';

/** Replaces secrets in every text of a {@link DecodeError}. @internal */
export function redactDecodeError(error: DecodeError, secrets: readonly (string | undefined)[]): DecodeError {
  return new DecodeError(
    error.kind,
    redact(error.message, secrets),
    error.paths.map((p) => redact(p, secrets)),
    error.raw === undefined ? undefined : redact(error.raw, secrets),
  );
}

/**
 * Parses a response body as JSON through the library's one `parseJson` (64-bit ids kept exact); empty text
 * is `undefined`. A failure is a redacted `DecodeError` of kind `'json'`.
 * @internal
 */
export function parseBody(text: string, secrets: readonly (string | undefined)[]): E.Either<DecodeError, unknown> {
  if (text.trim() === '') return E.right(undefined);
  return parseJson(text, secrets.filter((s): s is string => typeof s === 'string'));
}

/** Parses and (with a codec) decodes a response body; failures are redacted {@link DecodeError}s. @internal */
export function decodeBody<A>(
  text: string,
  codec: t.Decoder<unknown, A> | undefined,
  secrets: readonly (string | undefined)[],
): E.Either<DecodeError, A> {
  const parsed = parseBody(text, secrets);
  if (E.isLeft(parsed) || codec === undefined) return parsed as E.Either<DecodeError, A>;
  return E.mapLeft((e: DecodeError) => redactDecodeError(e, secrets))(
    decodeWith(codec, parsed.right, redact(text, secrets)),
  );
}
