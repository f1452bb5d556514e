import * as t from 'io-ts';
import { BooleanFromStringOrBoolean, DecimalOrEmptyString, DecimalString, IntFromNumberOrString, JsonScalarCodec, type JsonScalar } from './primitives';
import { declaredAs, struct } from './struct';
import type { DecimalText } from '../decimal';

/**
 * A changed balance of an account update.
 *
 * @example
 * ```ts
 * import type { Balance } from 'ex-streams';
 *
 * const usdt: Balance = { a: 'USDT', f: '99000.5', l: '1000' }; // asset, free, locked
 * ```
 */
export interface Balance {
  /** Asset name, text (e.g. `'USDT'`). */
  readonly a: string;
  /** Free (available) amount: decimal text, in units of the asset. */
  readonly f: DecimalText;
  /** Locked amount (held by open orders): decimal text, in units of the asset. */
  readonly l: DecimalText;
  /**
   * Amount "to be released" (as ccxt annotates HashKey's recorded frames): decimal text, or `''` (as HashKey sends it
   * when nothing is), when sent.
   */
  readonly r?: string;
  /** A field HashKey's balances may carry (undocumented): kept as sent (text, number, boolean or `null`). */
  readonly v?: JsonScalar;
}

/**
 * The codec of {@link Balance}, one changed balance of an account update: `a` (asset), `f` (free) and
 * `l` (locked) amounts as decimal text, required; HashKey's `r` (to be released: decimal text or `''`) and `v`
 * (undocumented: any JSON scalar, kept as sent) optional. Extra fields are kept.
 *
 * @example
 * ```ts
 * import { BalanceCodec } from 'ex-streams/codecs';
 * BalanceCodec.decode({ a: 'USDT', f: '1000.5', l: '0' }); // right({ a: 'USDT', f: '1000.5', l: '0' })
 * ```
 */
export const BalanceCodec = declaredAs<Balance>()(struct('Balance', { a: t.string, f: DecimalString, l: DecimalString }, { r: DecimalOrEmptyString, v: JsonScalarCodec }));

/**
 * A decoded account update: the private `outboundAccountInfo` event (SPEC, Private stream payloads).
 *
 * @example
 * ```ts
 * import type { OutboundAccountInfo } from 'ex-streams';
 *
 * const update: OutboundAccountInfo = { e: 'outboundAccountInfo', E: 1700000000000, B: [{ a: 'USDT', f: '99000', l: '1000' }] };
 * ```
 */
export interface OutboundAccountInfo {
  /** Event type, always `'outboundAccountInfo'`. */
  readonly e: 'outboundAccountInfo';
  /** Event time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly E: number;
  /** The balances that changed (only those; may be empty). */
  readonly B: Balance[];
  /** Whether the account can trade, when sent. */
  readonly T?: boolean;
  /** Whether the account can withdraw, when sent. */
  readonly W?: boolean;
  /** Whether the account can deposit, when sent. */
  readonly D?: boolean;
}

/**
 * The codec of {@link OutboundAccountInfo}, the private `outboundAccountInfo` event: balances that may
 * have moved (SPEC, Private stream payloads).
 *
 * Required: `e` (`'outboundAccountInfo'`), `E` (event time, ms), `B` (changed balances). Optional: `T`,
 * `W`, `D` (can trade / withdraw / deposit flags). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { OutboundAccountInfoCodec } from 'ex-streams/codecs';
 * OutboundAccountInfoCodec.decode({ e: 'outboundAccountInfo', E: '1499405658849', T: true, W: true, D: true,
 *   B: [{ a: 'BTC', f: '0.5', l: '0.1' }] });
 * // right({ e: 'outboundAccountInfo', E: 1499405658849, ..., B: [{ a: 'BTC', f: '0.5', l: '0.1' }] })
 * ```
 */
export const OutboundAccountInfoCodec = declaredAs<OutboundAccountInfo>()(
  struct(
    'OutboundAccountInfo',
    { e: t.literal('outboundAccountInfo'), E: IntFromNumberOrString, B: t.array(BalanceCodec) },
    { T: BooleanFromStringOrBoolean, W: BooleanFromStringOrBoolean, D: BooleanFromStringOrBoolean },
  ),
);
