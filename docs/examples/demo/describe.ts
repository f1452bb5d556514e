/** Text of statuses, errors, gaps and orders, shared by the live screen and the plain log. */
import type { UserStreamGap } from '../../../lib/index';
import type { ConnectionStatus } from '../../../lib/connection';
import type { TradeGap } from '../../../lib/history';
import { clockTime, seconds, shortId } from './format';
import type { OrderView, StreamName, SyncView } from './model';

/** `public stream` / `private stream`. */
export const streamLabel = (stream: StreamName): string => `${stream} stream`;

/** An error in one line: `ConnectionClosedError: connection closed (code 1006)`. */
export const describeError = (error: Error): string => `${error.name}: ${error.message}`;

/**
 * A connection status in a few words, for the log. `downMs`: for an `open` after a loss, how long the socket was
 * down (from the status leaving `open` to this `open`; not `since - downSince`, which counts from the last
 * message received and so grows with a quiet stream).
 */
export function describeStatus(status: ConnectionStatus, downMs?: number): string {
  switch (status.type) {
    case 'connecting':
      return status.attempt === 0 ? 'connecting' : `connecting (retry ${status.attempt})`;
    case 'open':
      if (status.downSince === undefined && downMs === undefined) return `open (epoch ${status.epoch})`;
      return downMs === undefined
        ? `reconnected: open (epoch ${status.epoch})`
        : `reconnected: open (epoch ${status.epoch}) after ${seconds(downMs)} down`;
    case 'reconnecting':
      return `lost (${describeError(status.cause)}); reconnecting in ${status.delayMs} ms (attempt ${status.attempt})`;
    case 'closed':
      return status.cause === undefined ? `closed (epoch ${status.epoch})` : `closed for good: ${describeError(status.cause)}`;
    default: {
      const never: never = status;
      return never;
    }
  }
}

/** A connection status as a short badge for the status line: `open e2`, `reconnecting`. */
export function statusBadge(status: ConnectionStatus | undefined): string {
  if (status === undefined) return 'idle';
  switch (status.type) {
    case 'open':
      return `open e${status.epoch}`;
    case 'connecting':
      return `connecting e${status.epoch}`;
    case 'reconnecting':
      return `reconnecting e${status.epoch}`;
    case 'closed':
      return `closed e${status.epoch}`;
    default: {
      const never: never = status;
      return never;
    }
  }
}

/** Whether two statuses differ enough to be logged (the idle status replayed before any connection is not). */
export const statusChanged = (before: ConnectionStatus | undefined, after: ConnectionStatus): boolean =>
  (before === undefined && !(after.type === 'closed' && after.epoch === 0)) ||
  (before !== undefined &&
    (
  before.type !== after.type ||
  before.epoch !== after.epoch ||
    ('attempt' in before && 'attempt' in after && before.attempt !== after.attempt)));

/** A trade gap notice. */
export const describeTradeGap = (gap: TradeGap): string =>
  `TRADE GAP ${gap.symbol} (epoch ${gap.epoch}): trades after #${gap.lastSeenId} up to #${gap.firstNewId} may be missing; refetch them over REST`;

/** A user-stream gap notice: the interval in which private events may have been lost. */
export const describeUserGap = (gap: UserStreamGap): string =>
  `USER STREAM GAP (epoch ${gap.epoch}): events between ${clockTime(gap.downSince)} and ${clockTime(gap.reconnectedAt)} ` +
  `(${seconds(gap.reconnectedAt - gap.downSince)}) may be lost${gap.keyChanged ? ', listen key changed' : ''}; orders$ and balances$ resync over REST`;

/** `seeded (epoch 1)`, `resynced after epoch 2`, `not authoritative`: the sync state of `orders$` or `balances$`. */
export const describeSync = (sync: SyncView | undefined): string =>
  sync === undefined
    ? 'waiting'
    : !sync.authoritative
      ? 'not authoritative'
      : sync.syncedEpoch === undefined || sync.syncedEpoch <= 1
        ? `seeded (epoch ${sync.syncedEpoch ?? 1})`
        : `resynced after epoch ${sync.syncedEpoch}`;

/** Whether `after` is a new sync state worth a log line (it became authoritative, or stopped being). */
export const syncChanged = (before: SyncView | undefined, after: SyncView): boolean =>
  before === undefined
    ? after.authoritative
    : before.authoritative !== after.authoritative || (after.authoritative && before.syncedEpoch !== after.syncedEpoch);

/** The log line of a sync change of `orders$` or `balances$`. */
export const describeSyncChange = (name: 'orders' | 'balances', sync: SyncView): string =>
  sync.authoritative
    ? `${name}: ${describeSync(sync)} from REST, authoritative`
    : `${name}: not authoritative (private socket lost; resync over REST when it reopens)`;

/** `BUY 2.5 ETHUSDT @ 2001.00`. */
export const describeOrder = (order: OrderView): string =>
  `${order.side} ${order.quantity} ${order.symbol} @ ${order.price}`;

/** `NEW → PARTIALLY_FILLED → FILLED`. */
export const describeHistory = (order: OrderView): string => order.history.join(' → ');

/** `filled 2.5/2.5 avg 2000.37` (without `filled ` for a table column). */
export const describeFill = (order: OrderView, prefix = true): string =>
  `${prefix ? 'filled ' : ''}${order.filledQuantity}/${order.quantity}${order.averagePrice === undefined ? '' : ` avg ${trimAverage(order.averagePrice)}`}`;

/** The exact average (up to 18 decimals) cut to 6 for display. */
const trimAverage = (avg: string): string => {
  const [whole = '', fraction = ''] = avg.split('.');
  const cut = fraction.slice(0, 6).replace(/0+$/, '');
  return cut === '' ? whole : `${whole}.${cut}`;
};

/**
 * `0-4 ms`: a fill's latency as the range the clock estimate allows (`ms` ± `errorMs`, never below 0); `3 ms` when
 * the estimate is exact.
 */
export function describeLatency({ ms, errorMs }: { readonly ms: number; readonly errorMs: number }): string {
  const low = Math.max(0, Math.round(ms - errorMs));
  const high = Math.max(0, Math.round(ms + errorMs));
  return low === high ? `${low} ms` : `${low}-${high} ms`;
}

/**
 * `fill on orders$ 0-4 ms after its event time (service clock ±10.5 ms)`: the service's clock (local clock + the
 * REST client's offset) when `orders$` showed a fill, minus its `E`.
 */
export const describeFillLatency = (latency: { readonly ms: number; readonly errorMs: number }): string =>
  `fill on orders$ ${describeLatency(latency)} after its event time (service clock ±${Math.round(latency.errorMs * 10) / 10} ms)`;

/** An order's log line: `order 1900…0002 (fills) BUY 2.5 ETHUSDT @ 2001.00: NEW → FILLED, filled 2.5/2.5`. */
export const describeOrderChange = (order: OrderView): string =>
  `order ${shortId(order.orderId)}${order.role === undefined ? '' : ` (${order.role})`} ${describeOrder(order)}: ` +
  `${describeHistory(order)}, ${describeFill(order)}`;

/** `listen key 9fA2… obtained` (the key is already redacted). */
export const listenKeyNote = (action: string, redactedKey: string): string => `listen key ${redactedKey} ${action}`;
