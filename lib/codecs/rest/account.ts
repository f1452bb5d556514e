import * as t from 'io-ts';
import { BooleanFromStringOrBoolean, DecimalString, IdFromNumberOrString, IntFromNumberOrString } from '../primitives';
import { struct } from '../struct';

/**
 * One balance of `GET /api/v1/account`: `asset`, `free`, `locked` (decimal text) and, when sent, `total`,
 * `assetId`, `assetName`. Numbers given as text or numbers are accepted; extra fields ignored.
 *
 * @example
 * ```ts
 * import { RestBalanceCodec } from 'ex-streams';
 * RestBalanceCodec.is({ asset: 'BTC', assetId: 'BTC', assetName: 'BTC', total: '1.5', free: '1', locked: '0.5' }); // true
 * ```
 */
export const RestBalanceCodec = struct(
  'RestBalance',
  { asset: t.string, free: DecimalString, locked: DecimalString },
  { total: DecimalString, assetId: IdFromNumberOrString, assetName: t.string },
);
/**
 * A decoded account balance.
 *
 * @example
 * ```ts
 * import type { RestBalance } from 'ex-streams';
 *
 * const usdt: RestBalance = { asset: 'USDT', free: '1000', locked: '0' };
 * ```
 */
export type RestBalance = t.TypeOf<typeof RestBalanceCodec>;

/**
 * Answer of `GET /api/v1/account`: `balances`, and `userId`, `accountId`, `updateTime` when sent.
 *
 * @example
 * ```ts
 * import { RestAccountCodec } from 'ex-streams';
 * RestAccountCodec.is({ balances: [{ asset: 'BTC', free: '1', locked: '0' }], userId: '1470000000' }); // true
 * ```
 */
export const RestAccountCodec = struct(
  'RestAccount',
  { balances: t.array(RestBalanceCodec) },
  { userId: IdFromNumberOrString, accountId: IdFromNumberOrString, updateTime: IntFromNumberOrString },
);
/**
 * A decoded account.
 *
 * @example
 * ```ts
 * import type { RestAccount } from 'ex-streams';
 *
 * const account: RestAccount = { balances: [{ asset: 'BTC', free: '1', locked: '0' }] };
 * ```
 */
export type RestAccount = t.TypeOf<typeof RestAccountCodec>;

/**
 * One own trade of `GET /api/v1/account/trades`: ids as exact text, price and quantities decimal text, `time`
 * in ms. Required: `symbol`, `id`, `orderId`, `price`, `qty`, `time`; the rest when sent.
 *
 * @example
 * ```ts
 * import { AccountTradeCodec } from 'ex-streams';
 * AccountTradeCodec.decode({ id: '1470000009', symbol: 'BTCUSDT', orderId: '1470000001', price: '30000', qty: '0.1',
 *   commission: '0.0001', commissionAsset: 'BTC', time: '1700000000000', isBuyer: true, isMaker: false });
 * // right({ ..., time: 1700000000000 })
 * ```
 */
export const AccountTradeCodec = struct(
  'AccountTrade',
  {
    symbol: t.string,
    id: IdFromNumberOrString,
    orderId: IdFromNumberOrString,
    price: DecimalString,
    qty: DecimalString,
    time: IntFromNumberOrString,
  },
  {
    accountId: IdFromNumberOrString,
    symbolName: t.string,
    ticketId: IdFromNumberOrString,
    matchOrderId: IdFromNumberOrString,
    commission: DecimalString,
    commissionAsset: t.string,
    isBuyer: BooleanFromStringOrBoolean,
    isMaker: BooleanFromStringOrBoolean,
  },
);
/**
 * A decoded own trade.
 *
 * @example
 * ```ts
 * import type { AccountTrade } from 'ex-streams';
 *
 * const fill: AccountTrade = { symbol: 'BTCUSDT', id: '1470000009', orderId: '1470000001', price: '30000', qty: '0.1', time: 1700000000000 };
 * ```
 */
export type AccountTrade = t.TypeOf<typeof AccountTradeCodec>;
