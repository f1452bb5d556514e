import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { decodeWith } from '../../codecs/decode';
import { FAIL, type FastCheck } from '../../codecs/fast/scalars';
import type { DecodeError } from '../../errors';

/**
 * The records of one message: each through the codec's fast check when it has one (no io-ts context, no
 * `Either`), through `decodeWith` otherwise and whenever the check fails (for the exact errors).
 * @internal
 */
export function decodeRecords<R>(
  codec: t.Decoder<unknown, R> & { readonly name: string },
  check: FastCheck<R> | undefined,
  data: readonly unknown[],
  onDecodeError: (error: DecodeError) => void,
): R[] {
  const n = data.length;
  // The parsed `data` array itself while every record passes unchanged (the common case): it belongs to
  // this message alone, so no copy is needed. A copy starts at the first converted or failed record.
  let out: R[] | undefined;
  for (let i = 0; i < n; i++) {
    const item = data[i];
    const fast = check === undefined ? FAIL : check(item);
    if (fast !== FAIL) {
      if (out !== undefined) out.push(fast);
      else if (fast !== item) (out = data.slice(0, i) as R[]).push(fast);
      continue;
    }
    out ??= data.slice(0, i) as R[];
    const decoded = decodeWith(codec, item);
    if (E.isRight(decoded)) out.push(decoded.right);
    else onDecodeError(decoded.left);
  }
  return out ?? (data as R[]);
}
