import * as t from 'io-ts';
import { OrderSideCodec, type OrderSide } from '../executionReport';
import {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from '../primitives';
import { declaredAs, struct } from '../struct';

/**
 * An order as the order endpoints answer it (`POST`, `GET`, `DELETE /api/v1/spot/order`,
 * `GET /api/v1/spot/openOrders`). Ids stay exact text (a bare 64-bit number survives when the body went
 * through the client), amounts decimal text, times ms numbers (text accepted). Required: `symbol`,
 * `orderId`, `side`, `status`; every other documented field is optional (`cummulativeQuoteQty` is the spelling
 * some deployments use); `status`, `type`, `timeInForce` are kept as sent; extra fields ignored.
 *
 * @example
 * ```ts
 * import { RestOrderCodec } from 'ex-streams/codecs';
 * RestOrderCodec.decode({ orderId: '1470000001', symbol: 'BTCUSDT', side: 'BUY', status: 'NEW', price: '30000',
 *   origQty: '0.1', executedQty: '0', time: '1700000000000' });
 * // right({ orderId: '1470000001', symbol: 'BTCUSDT', side: 'BUY', status: 'NEW', price: '30000', origQty: '0.1',
 * //         executedQty: '0', time: 1700000000000 })
 * ```
 */
export const RestOrderCodec = declaredAs<RestOrder>()(struct(
  'RestOrder',
  { symbol: t.string, orderId: IdFromNumberOrString, side: OrderSideCodec, status: t.string },
  {
    accountId: IdFromNumberOrString,
    exchangeId: IdFromNumberOrString,
    symbolName: t.string,
    clientOrderId: TextFromNumberOrString,
    price: DecimalOrEmptyString,
    origQty: DecimalOrEmptyString,
    executedQty: DecimalOrEmptyString,
    cumulativeQuoteQty: DecimalOrEmptyString,
    cummulativeQuoteQty: DecimalOrEmptyString,
    avgPrice: DecimalOrEmptyString,
    timeInForce: t.string,
    type: t.string,
    stopPrice: DecimalOrEmptyString,
    icebergQty: DecimalOrEmptyString,
    time: IntFromNumberOrString,
    updateTime: IntFromNumberOrString,
    transactTime: IntFromNumberOrString,
    isWorking: BooleanFromStringOrBoolean,
    reqAmount: DecimalOrEmptyString,
  },
));
/**
 * A decoded order of the REST API.
 *
 * @example
 * ```ts
 * import type { RestOrder } from 'ex-streams';
 *
 * const order: RestOrder = { orderId: '1470000001', symbol: 'BTCUSDT', side: 'SELL', status: 'FILLED', executedQty: '0.1' };
 * ```
 */
export interface RestOrder {
  /** Symbol (currency pair id), text. */
  readonly symbol: string;
  /** Order id: text, 64-bit, compare as text. */
  readonly orderId: string;
  /** Side: `'BUY'` or `'SELL'`. */
  readonly side: OrderSide;
  /** Order status, text as sent (e.g. `'NEW'`, `'FILLED'`). */
  readonly status: string;
  /** Account id: text, 64-bit, when sent. */
  readonly accountId?: string;
  /** Exchange id: text, when sent. */
  readonly exchangeId?: string;
  /** Currency pair name, text, when sent. */
  readonly symbolName?: string;
  /** Client order id: text, may be `''`, when sent. */
  readonly clientOrderId?: string;
  /** Order price: decimal text (quote asset per unit of base asset), or `''`, when sent. */
  readonly price?: string;
  /** Ordered quantity: decimal text (base asset), or `''`, when sent. */
  readonly origQty?: string;
  /** Filled quantity: decimal text (base asset), or `''`, when sent. */
  readonly executedQty?: string;
  /** Cumulative quote asset transacted: decimal text, or `''`, when sent. */
  readonly cumulativeQuoteQty?: string;
  /** The same as `cumulativeQuoteQty`, in the spelling some deployments use. */
  readonly cummulativeQuoteQty?: string;
  /** Average fill price: decimal text, or `''`, when sent. */
  readonly avgPrice?: string;
  /** Time in force, text as sent (e.g. `'GTC'`), when sent. */
  readonly timeInForce?: string;
  /** Order type, text as sent (e.g. `'LIMIT'`), when sent. */
  readonly type?: string;
  /** Stop price: decimal text, or `''`, when sent. */
  readonly stopPrice?: string;
  /** Iceberg quantity: decimal text, or `''`, when sent. */
  readonly icebergQty?: string;
  /** Creation time: milliseconds since the Unix epoch, when sent. */
  readonly time?: number;
  /** Last update time: milliseconds since the Unix epoch, when sent. */
  readonly updateTime?: number;
  /** Placement time (answer of a new order): milliseconds since the Unix epoch, when sent. */
  readonly transactTime?: number;
  /** Whether the order is working (on the book), when sent. */
  readonly isWorking?: boolean;
  /** Requested amount (quote asset, market orders): decimal text, or `''`, when sent. */
  readonly reqAmount?: string;
}

