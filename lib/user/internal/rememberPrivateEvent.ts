/**
 * Step 3 of the private path (see `userCore`): the identity the reorder buffer de-duplicates events by.
 * @internal
 * @module
 */
import type { OrderStatus } from '../../codecs/executionReport';
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { RecentKeys } from '../../internal/recentKeys';
import { privateEventKey } from '../privateEventKey';

/**
 * The user stream's default de-duplication: records `event` under its {@link privateEventKey} identity and
 * returns `false` for a duplicate. An execution report's key `er:{i}:{X}:{z}:{U}` is remembered as the parts
 * `(i, X, z, U ?? E)` (`RecentKeys.addParts`): the same equality (ids, statuses and decimals hold no `:`),
 * without building and retaining a ~40-character string per report. Other events use the key string.
 * @internal
 */
export function rememberPrivateEvent(seen: RecentKeys, event: PrivateEvent, now: number): boolean {
  return event.e === 'executionReport'
    ? seen.addParts(event.i, sharedStatus(event.X), event.z, event.U ?? event.E, now)
    : seen.add(privateEventKey(event), now);
}

/**
 * The status as one of six constant strings (equal text): the memory of 100 000 keys then holds no status
 * string of its own per report (`JSON.parse` gives each report a fresh `"PARTIALLY_FILLED"`).
 */
function sharedStatus(status: OrderStatus): OrderStatus {
  switch (status) {
    case 'NEW':
      return 'NEW';
    case 'PARTIALLY_FILLED':
      return 'PARTIALLY_FILLED';
    case 'FILLED':
      return 'FILLED';
    case 'PARTIALLY_CANCELED':
      return 'PARTIALLY_CANCELED';
    case 'CANCELED':
      return 'CANCELED';
    case 'REJECTED':
      return 'REJECTED';
    default: {
      const never: never = status;
      return never;
    }
  }
}
