import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import { DecodeError } from '../errors';
import { excerpt } from '../internal/redact';

/**
 * Runs a codec and turns a failure into a typed {@link DecodeError} value carrying PathReporter lines and a
 * redacted excerpt of the input. Never throws.
 *
 * @example
 * ```ts
 * import { decodeWith, TradeRecordCodec } from 'ex-streams';
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

/** Builds a {@link DecodeError} from io-ts errors. @internal */
export function decodeErrorFrom(name: string, errors: t.Errors, input: unknown, raw?: string): DecodeError {
  const paths = PathReporter.report(E.left(errors));
  let text = raw;
  if (text === undefined) {
    try {
      text = JSON.stringify(input);
    } catch {
      text = String(input);
    }
  }
  return new DecodeError('codec', `${name} failed to decode: ${paths.length} error(s)`, paths, excerpt(text ?? ''));
}
