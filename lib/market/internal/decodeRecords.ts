// Data path, market side (notes/architecture.md, "The data path"): step 5, a message's records through its topic's codec (called by TopicRouter).
import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { countedDecodeError, decodeWith } from '../../codecs/decode';
import { FAIL, type FastCheck } from '../../codecs/fastCheck';
import type { DecodeError } from '../../errors';

/**
 * The records of one message: each through the codec's fast check when it has one (no io-ts context, no
 * `Either`), through the codec otherwise and whenever the check fails. Records that fail are left out and
 * reported as ONE `DecodeError` per message, counting them, with the exact paths of the first one only:
 * after that first failure a record the fast check refuses is counted as failed without running the codec
 * (the fast check refuses exactly what the codec refuses, property-tested in `spec/codecs/fastCheck.spec.ts`),
 * so a message of two million bad records costs about what its `JSON.parse` cost. Good records of the same
 * message still arrive.
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
  let first: DecodeError | undefined;
  let failed = 0;
  for (let i = 0; i < n; i++) {
    const item = data[i];
    const fast = check === undefined ? FAIL : check(item);
    if (fast !== FAIL) {
      if (out !== undefined) out.push(fast);
      else if (fast !== item) (out = data.slice(0, i) as R[]).push(fast);
      continue;
    }
    out ??= data.slice(0, i) as R[];
    if (first === undefined) {
      const decoded = decodeWith(codec, item);
      if (E.isRight(decoded)) out.push(decoded.right);
      else {
        first = decoded.left;
        failed++;
      }
    } else if (check !== undefined) failed++;
    else {
      const decoded = codec.decode(item);
      if (E.isRight(decoded)) out.push(decoded.right);
      else failed++;
    }
  }
  if (first !== undefined) onDecodeError(countedDecodeError(first, failed, n, `${codec.name} records`));
  return out ?? (data as R[]);
}
