import * as t from 'io-ts';
import { BooleanFromStringOrBoolean, DecimalString, IdFromNumberOrString, IntFromNumberOrString, TextFromNumberOrString } from '../primitives';
import { declaredAs, struct } from '../struct';
import type { DecimalText } from '../../decimal';

/**
 * One balance of `GET /api/v1/account`: `asset`, `free`, `locked` (decimal text) and, when sent, `total`,
 * `assetId`, `assetName`. Numbers given as text or numbers are accepted; extra fields ignored.
 *
 * @example
 * ```ts
 * import { RestBalanceCodec } from 'ex-streams/codecs';
 * RestBalanceCodec.is({ asset: 'BTC', assetId: 'BTC', assetName: 'BTC', total: '1.5', free: '1', locked: '0.5' }); // true
 * ```
 */
export const RestBalanceCodec = declaredAs<RestBalance>()(struct(
  'RestBalance',
  { asset: t.string, free: DecimalString, locked: DecimalString },
  { total: DecimalString, assetId: IdFromNumberOrString, assetName: t.string },
));
/**
 * A decoded account balance.
 *
 * @example
 * ```ts
 * import type { RestBalance } from 'ex-streams/rest';
 *
 * const usdt: RestBalance = { asset: 'USDT', free: '1000', locked: '0' };
 * ```
 */
export interface RestBalance {
  /** Asset name, text (e.g. `'USDT'`). */
  readonly asset: string;
  /** Free (available) amount: decimal text, in units of the asset. */
  readonly free: DecimalText;
  /** Locked amount (held by open orders): decimal text, in units of the asset. */
  readonly locked: DecimalText;
  /** Total amount (`free + locked`): decimal text, when sent. */
  readonly total?: DecimalText;
  /** Asset id: text (a number is turned into text), when sent. */
  readonly assetId?: string;
  /** Asset display name, text, when sent. */
  readonly assetName?: string;
}

/**
 * Answer of `GET /api/v1/account`: `balances`, and `userId`, `accountId`, `updateTime` when sent.
 *
 * @example
 * ```ts
 * import { RestAccountCodec } from 'ex-streams/codecs';
 * RestAccountCodec.is({ balances: [{ asset: 'BTC', free: '1', locked: '0' }], userId: '1470000000' }); // true
 * ```
 */
export const RestAccountCodec = declaredAs<RestAccount>()(struct(
  'RestAccount',
  { balances: t.array(RestBalanceCodec) },
  { userId: IdFromNumberOrString, accountId: IdFromNumberOrString, updateTime: IntFromNumberOrString },
));
/**
 * A decoded account.
 *
 * @example
 * ```ts
 * import type { RestAccount } from 'ex-streams/rest';
 *
 * const account: RestAccount = { balances: [{ asset: 'BTC', free: '1', locked: '0' }] };
 * ```
 */
export interface RestAccount {
  /** The account's balances. */
  readonly balances: RestBalance[];
  /** User id: text, 64-bit, when sent. */
  readonly userId?: string;
  /** Account id: text, 64-bit, when sent. */
  readonly accountId?: string;
  /** Last update time: milliseconds since the Unix epoch, when sent. */
  readonly updateTime?: number;
}

/**
 * One own trade of `GET /api/v1/account/trades`: ids as exact text, price and quantities decimal text, `time`
 * in ms. Required: `symbol`, `id`, `orderId`, `price`, `qty`, `time`; the rest when sent.
 *
 * @example
 * ```ts
 * import { AccountTradeCodec } from 'ex-streams/codecs';
 * AccountTradeCodec.decode({ id: '1470000009', symbol: 'BTCUSDT', orderId: '1470000001', price: '30000', qty: '0.1',
 *   commission: '0.0001', commissionAsset: 'BTC', time: '1700000000000', isBuyer: true, isMaker: false });
 * // right({ ..., time: 1700000000000 })
 * ```
 */
export const AccountTradeCodec = declaredAs<AccountTrade>()(struct(
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
    clientOrderId: TextFromNumberOrString,
    fee: struct('AccountTradeFee', {}, { feeCoinId: t.string, feeCoinName: t.string, fee: DecimalString }),
  },
));
/**
 * A decoded own trade.
 *
 * @example
 * ```ts
 * import type { AccountTrade } from 'ex-streams/rest';
 *
 * const fill: AccountTrade = { symbol: 'BTCUSDT', id: '1470000009', orderId: '1470000001', price: '30000', qty: '0.1', time: 1700000000000 };
 * ```
 */
export interface AccountTrade {
  /** Symbol (currency pair), text. */
  readonly symbol: string;
  /** Trade id: text, 64-bit, compare as text. */
  readonly id: string;
  /** Id of the account's order: text, 64-bit. */
  readonly orderId: string;
  /** Fill price: decimal text, quote asset per unit of base asset. */
  readonly price: DecimalText;
  /** Filled quantity: decimal text, in base asset units. */
  readonly qty: DecimalText;
  /** Fill time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly time: number;
  /** Account id: text, 64-bit, when sent. */
  readonly accountId?: string;
  /** Currency pair name, text, when sent. */
  readonly symbolName?: string;
  /** Ticket id (as `TicketInfo.T` on the private stream): text, 64-bit, when sent. */
  readonly ticketId?: string;
  /** Match order id (the other side's order): text, 64-bit, when sent. */
  readonly matchOrderId?: string;
  /** Commission amount: decimal text (in `commissionAsset`), when sent. */
  readonly commission?: DecimalText;
  /** Commission asset, text, when sent. */
  readonly commissionAsset?: string;
  /** Whether the account's order was the buyer, when sent. */
  readonly isBuyer?: boolean;
  /** Whether the account's order was the maker (resting) side, when sent. */
  readonly isMaker?: boolean;
  /** The order's client order id, when sent (`GET /api/v1/account/tradesByClOrderId` sends it). */
  readonly clientOrderId?: string;
  /** The fee as HashKey's trades by client order id send it (`fee.fee` in `fee.feeCoinId`), when sent. */
  readonly fee?: { readonly feeCoinId?: string; readonly feeCoinName?: string; readonly fee?: DecimalText };
}
