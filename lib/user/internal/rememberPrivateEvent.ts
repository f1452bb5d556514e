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
    ? seen.addParts(event.i, event.X, event.z, event.U ?? event.E, now)
    : seen.add(privateEventKey(event), now);
}
