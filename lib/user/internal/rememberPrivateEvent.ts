/**
 * Step 3 of the private path (see `userCore`): the identity the reorder buffer de-duplicates events by.
 * @internal
 * @module
 */
import { KnownOrderStatusCodec } from '../../codecs/executionReport';
import type { PrivateEvent } from '../../codecs/privateEvents';
import { PLAIN_CODE_CHARS, plainTextCode } from '../../decimal/grammar';
import type { RecentKeys } from '../../internal/recentKeys';
import { privateEventKey } from '../privateEventKey';

/** Each known order status as a number below {@link STATUSES}, in the order its codec declares them (other text: the key string). */
const STATUS_CODE: ReadonlyMap<string, number> = new Map(Object.keys(KnownOrderStatusCodec.keys).map((status, n) => [status, n]));
const STATUSES = STATUS_CODE.size;

/**
 * The user stream's default de-duplication: records `event` under its {@link privateEventKey} identity and
 * returns `false` for a duplicate. An execution report's key `er:{i}:{X}:{z}:{U}` is remembered as four
 * integers (`RecentKeys.addNumbers`) when its order id (up to 28 characters) and its `z` (up to 14) are plain
 * text (digits and dots), as they are on the service: the id's two halves and `z` by `plainTextCode` (distinct
 * texts, distinct codes), the status folded into `z`'s code, and `U ?? E`. The same equality as the key string,
 * without building one, and without keeping the report's strings alive in a memory of up to 100 000 keys for a
 * minute. Other events, and reports with other text (a status the library does not know among them), use the key string.
 * @internal
 */
export function rememberPrivateEvent(seen: RecentKeys, event: PrivateEvent, now: number): boolean {
  if (event.e === 'executionReport') {
    const { i, z } = event;
    const cut = i.length > PLAIN_CODE_CHARS ? i.length - PLAIN_CODE_CHARS : 0;
    const high = plainTextCode(i, 0, cut);
    const low = plainTextCode(i, cut, i.length);
    const filled = plainTextCode(z, 0, z.length);
    const status = STATUS_CODE.get(event.X) ?? -1;
    const filledAndStatus = filled * STATUSES + status;
    const time = event.U ?? event.E;
    // Every part an exact integer (the combined code too: `plainTextCode` leaves room for the statuses).
    if (high >= 0 && low >= 0 && filled >= 0 && status >= 0 && Number.isSafeInteger(filledAndStatus) && Number.isSafeInteger(time)) {
      return seen.addNumbers(high, low, filledAndStatus, time, now);
    }
  }
  return seen.add(privateEventKey(event), now);
}
