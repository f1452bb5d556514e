import type { ExecutionReport, KnownOrderStatus, OrderSide, OrderStatus } from '../codecs/executionReport';
import { averagePrice } from '../decimal';
import type { RestOrder } from '../codecs/rest/order';
import { compareDecimal } from '../decimal/compare';
import { type DecimalText, isDecimalGrammar } from '../decimal/grammar';
import { exactQuotient } from '../decimal/small';

/**
 * The current state of one order, folded from its execution reports by {@link folds!ordersState}.
 *
 * Quantities and prices stay exact decimal text (`DecimalText`: an order's price goes into a new order as it is);
 * convert at the edge (e.g. with `decimalToNumber`).
 *
 * @example
 * ```ts
 * import { userStream, type OrderState } from 'ex-streams';
 * const show = (o: OrderState) => `${o.orderId} ${o.status} ${o.filledQuantity}/${o.quantity} @ ${o.averagePrice ?? '-'}`;
 * // '1470000001 PARTIALLY_FILLED 0.5/1 @ 30000.1'
 * ```
 */
export interface OrderState {
  /** Order id (`i`), as text. */
  readonly orderId: string;
  /** Client order id (`c`), as text. */
  readonly clientOrderId: string;
  /** Symbol (`s`). */
  readonly symbol: string;
  /** `BUY` or `SELL` (`S`). */
  readonly side: OrderSide;
  /** Order type (`o`), e.g. `LIMIT`. */
  readonly type: string;
  /**
   * Current status (`X`); only ever moves forward: `PENDING_NEW` → `NEW` → `PARTIALLY_FILLED` → `PENDING_CANCEL` →
   * a final one (`FILLED`, `PARTIALLY_CANCELED`, `CANCELED`, `REJECTED`). A status the library does not know is kept
   * as text while nothing else is known of the order, and is never final.
   */
  readonly status: OrderStatus;
  /** Order quantity (`q`). */
  readonly quantity: DecimalText;
  /** Order price (`p`). */
  readonly price: DecimalText;
  /** Cumulative filled quantity (`z`); never decreases. */
  readonly filledQuantity: DecimalText;
  /** Cumulative quote quantity (`Z`) of the report that carried {@link filledQuantity}. */
  readonly filledQuoteQuantity: DecimalText;
  /** `Z / z` as exact decimal text (up to 18 fraction digits, truncated); `undefined` while nothing is filled. */
  readonly averagePrice: string | undefined;
  /** Order update time (`U`, or `E` when absent) of {@link report}, in ms. */
  readonly updateTime: number;
  /**
   * The report the status and the order fields come from (the newest one applied). For a state that comes
   * from a REST answer (the user stream's snapshots after it starts and after each gap), the report that
   * answer stands for: `E` and `U` its `updateTime`, `d` empty, the other fields the order's.
   */
  readonly report: ExecutionReport;
}

/**
 * Progress of an order status, the first key of {@link compareReports}: a status never moves an order to a lower
 * rank. Unknown text (a status this library does not know) 0, `PENDING_NEW` 1, `NEW` 2, `PARTIALLY_FILLED` 3,
 * `PENDING_CANCEL` 4, every final status ({@link FINAL_RANK}) 5.
 *
 * - An unknown status ranks lowest: it shows only while nothing else is known of its order, never moves an order
 *   back (a later `NEW` replaces it, it never replaces a `NEW`) and never finishes it; its fills still count.
 * - `PENDING_CANCEL` ranks above the open statuses and below the final ones: once a cancel was asked, a late
 *   `NEW` / `PARTIALLY_FILLED` report does not bring the status back (its fills still count: `z` only grows), and
 *   whatever ends the order (`CANCELED`, `PARTIALLY_CANCELED`, or `FILLED` when a fill beat the cancel) wins.
 * @internal
 */
export function statusRank(status: OrderStatus): number {
  return RANKS.get(status) ?? 0;
}

/** The rank of every final status ({@link statusRank}); a status ranks there exactly when `isFinalOrderStatus`. @internal */
export const FINAL_RANK = 5;

/** The rank of each known status (a `Record` over every one: a status added to the codec must be ranked here). */
const RANK: Readonly<Record<KnownOrderStatus, number>> = {
  PENDING_NEW: 1,
  NEW: 2,
  PARTIALLY_FILLED: 3,
  PENDING_CANCEL: 4,
  FILLED: FINAL_RANK,
  PARTIALLY_CANCELED: FINAL_RANK,
  CANCELED: FINAL_RANK,
  REJECTED: FINAL_RANK,
};
const RANKS: ReadonlyMap<string, number> = new Map(Object.entries(RANK));

const updateTimeOf = (r: ExecutionReport): number => r.U ?? r.E;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Total order on the reports of one order: status progress, then `z`, then update time `U` (or `E`), then
 * `E`, then execution id `d`, then status text. Taking the maximum under it makes the fold independent of
 * arrival order and of duplicates.
 * @internal
 */
export function compareReports(a: ExecutionReport, b: ExecutionReport): number {
  return (
    statusRank(a.X) - statusRank(b.X) ||
    compareDecimal(a.z, b.z) ||
    updateTimeOf(a) - updateTimeOf(b) ||
    a.E - b.E ||
    compareText(String(a.d ?? ''), String(b.d ?? '')) ||
    compareText(a.X, b.X)
  );
}

/** Most fraction digits of an order state's average price. */
const AVERAGE_DIGITS = 18;

/**
 * The average price `Z / z` of a fill (exact decimal text, as {@link averagePrice} answers it), `near` a report of
 * its order: the report's own average `V`, else its last price `L`, when that is the quotient exactly (checked by
 * one exact multiplication: a limit order filled at its price, the usual case), else the division.
 * @internal
 */
export function fillAverage(Z: string, z: string, near: ExecutionReport): string | undefined {
  const candidate = near.V || near.L;
  return (candidate && exactQuotient(Z, z, candidate, AVERAGE_DIGITS)) || averagePrice(Z, z, AVERAGE_DIGITS);
}

/**
 * Applies one execution report to the state of its order (`undefined` = not seen yet). Returns the same
 * state object when the report changes nothing (a duplicate or a stale update). `averageOf` computes the
 * average price of a new fill (default {@link fillAverage}; the user stream's unobserved fold passes a
 * stand-in and computes the average once per order at the end of a batch).
 * @internal
 */
export function applyExecutionReport(
  state: OrderState | undefined,
  report: ExecutionReport,
  averageOf: (Z: string, z: string, near: ExecutionReport) => string | undefined = fillAverage,
): OrderState {
  if (state === undefined) return fromReport(report, report.z, report.Z, averageOf(report.Z, report.z, report));
  const newer = compareReports(report, state.report) > 0;
  const fillsMore =
    (compareDecimal(report.z, state.filledQuantity) ||
      compareDecimal(report.Z, state.filledQuoteQuantity) ||
      compareText(report.z, state.filledQuantity) ||
      compareText(report.Z, state.filledQuoteQuantity)) > 0;
  if (!newer && !fillsMore) return state;
  if (!fillsMore) return fromReport(report, state.filledQuantity, state.filledQuoteQuantity, state.averagePrice);
  return fromReport(newer ? report : state.report, report.z, report.Z, averageOf(report.Z, report.z, report));
}

/** The state an order's `report` gives, with the fill `(z, Z)` and its `average` price. */
function fromReport(report: ExecutionReport, z: DecimalText, Z: DecimalText, average: string | undefined): OrderState {
  return {
    orderId: report.i,
    clientOrderId: report.c,
    symbol: report.s,
    side: report.S,
    type: report.o,
    status: report.X,
    quantity: report.q,
    price: report.p,
    filledQuantity: z,
    filledQuoteQuantity: Z,
    averagePrice: average,
    updateTime: updateTimeOf(report),
    report,
  };
}

const amount = (text: string | undefined): DecimalText => (text !== undefined && isDecimalGrammar(text) ? text : '0');

/**
 * An order of the REST API (`openOrders`, `getOrder`, …) as the execution report it stands for, so that a
 * snapshot merges into the order states by the same rule as the pushes ({@link applyExecutionReport}): status
 * progress, then filled quantity, then update time. `E` and `U` are its `updateTime` (else `transactTime`,
 * else `time`, else `fallbackTimeMs`); `z` `executedQty`, `Z` `cumulativeQuoteQty` (either spelling); a
 * missing or empty amount (the REST fields may be `''`) is `'0'`. Every status folds by the same rule as a push
 * ({@link statusRank}): `PENDING_NEW` and `PENDING_CANCEL` in their place, a status the library does not know kept
 * as text, ranked lowest and never final. The one place REST orders become order states.
 * @internal
 */
export function restOrderReport(order: RestOrder, fallbackTimeMs: number): ExecutionReport {
  const time = order.updateTime ?? order.transactTime ?? order.time ?? fallbackTimeMs;
  const report: ExecutionReport = {
    e: 'executionReport',
    E: time,
    s: order.symbol,
    i: order.orderId,
    c: order.clientOrderId ?? '',
    S: order.side,
    o: order.type ?? '',
    X: order.status,
    q: amount(order.origQty),
    p: amount(order.price),
    z: amount(order.executedQty),
    Z: amount(order.cumulativeQuoteQty ?? order.cummulativeQuoteQty),
    d: '',
    U: time,
  };
  return order.timeInForce === undefined ? report : { ...report, f: order.timeInForce };
}
