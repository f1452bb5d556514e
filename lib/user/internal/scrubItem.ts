/**
 * Beside the private path (see `userCore`): the last stage of the items before the outputs, listen keys redacted.
 * @internal
 * @module
 */
import type { UserItem } from './items';
import { scrubError } from './scrubError';

/** Redacts listen keys from the errors an item carries (error items and status causes). @internal */
export function scrubItem(item: UserItem, keys: readonly string[]): UserItem {
  switch (item.type) {
    case 'error': {
      const error = scrubError(item.error, keys);
      return error === item.error ? item : { type: 'error', error };
    }
    case 'status': {
      const { status } = item;
      if ((status.type !== 'reconnecting' && status.type !== 'closed') || status.cause === undefined) return item;
      const cause = scrubError(status.cause, keys);
      return cause === status.cause ? item : { type: 'status', status: { ...status, cause } };
    }
    case 'gap':
    case 'orders':
    case 'balances':
      return item;
    default: {
      const never: never = item;
      return never;
    }
  }
}
