import * as t from 'io-ts';

/**
 * An error body as real deployments send it: a `code` that is a number or numeric text, and a message in
 * `msg` or in `desc` (both optional). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { ErrorBodyCodec } from 'ex-streams/codecs';
 * ErrorBodyCodec.is({ code: '-100010', desc: 'Invalid Symbols!' }); // true
 * ErrorBodyCodec.is({ code: -1022, msg: 'Signature for this request is not valid.' }); // true
 * ```
 */
export const ErrorBodyCodec = t.intersection(
  [
    t.type({ code: t.union([t.number, t.string]) }),
    t.partial({ msg: t.string, desc: t.string }),
  ],
  'ErrorBody',
);
/**
 * A decoded error body.
 *
 * @example
 * ```ts
 * import type { ErrorBody } from 'ex-streams/codecs';
 *
 * const body: ErrorBody = { code: -1121, msg: 'Invalid symbol.' };
 * ```
 */
export type ErrorBody = t.TypeOf<typeof ErrorBodyCodec>;
