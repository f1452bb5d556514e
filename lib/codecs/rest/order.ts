import * as t from 'io-ts';
import { OrderSideCodec } from '../executionReport';
import {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from '../primitives';
import { struct } from '../struct';

/**
 * An order as the order endpoints answer it (`POST`, `GET`, `DELETE /api/v1/spot/order`,
 * `GET /api/v1/spot/openOrders`). Ids stay exact text (a bare 64-bit number survives when the body went
 * through the client), amounts decimal text, times ms numbers (text accepted). Required: `symbol`,
 * `orderId`, `side`, `status`; every other documented field is optional (`cummulativeQuoteQty` is the spelling
 * some deployments use); `status`, `type`, `timeInForce` are kept as sent; extra fields ignored.
 *
 * @example
 * ```ts
 * import { RestOrderCodec } from 'ex-streams';
 * RestOrderCodec.decode({ orderId: '1470000001', symbol: 'BTCUSDT', side: 'BUY', status: 'NEW', price: '30000',
 *   origQty: '0.1', executedQty: '0', time: '1700000000000' });
 * // right({ orderId: '1470000001', symbol: 'BTCUSDT', side: 'BUY', status: 'NEW', price: '30000', origQty: '0.1',
 * //         executedQty: '0', time: 1700000000000 })
 * ```
 */
export const RestOrderCodec = struct(
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
);
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
export type RestOrder = t.TypeOf<typeof RestOrderCodec>;

