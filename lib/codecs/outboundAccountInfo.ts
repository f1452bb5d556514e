import * as t from 'io-ts';
import { BooleanFromStringOrBoolean, DecimalString, IntFromNumberOrString } from './primitives';
import { struct } from './struct';

/**
 * One changed balance of an account update: `a` (asset), `f` (free) and `l` (locked) amounts as decimal
 * text. All required.
 *
 * @example
 * ```ts
 * import { BalanceCodec } from 'ex-streams';
 * BalanceCodec.decode({ a: 'USDT', f: '1000.5', l: '0' }); // right({ a: 'USDT', f: '1000.5', l: '0' })
 * ```
 */
export const BalanceCodec = struct('Balance', { a: t.string, f: DecimalString, l: DecimalString }, {});
/**
 * A changed balance.
 *
 * @example
 * ```ts
 * import type { Balance } from 'ex-streams';
 *
 * const usdt: Balance = { a: 'USDT', f: '99000.5', l: '1000' }; // asset, free, locked
 * ```
 */
export type Balance = t.TypeOf<typeof BalanceCodec>;

/**
 * The private `outboundAccountInfo` event: balances that may have moved (SPEC, Private stream payloads).
 *
 * Required: `e` (`'outboundAccountInfo'`), `E` (event time, ms), `B` (changed balances). Optional: `T`,
 * `W`, `D` (can trade / withdraw / deposit flags). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { OutboundAccountInfoCodec } from 'ex-streams';
 * OutboundAccountInfoCodec.decode({ e: 'outboundAccountInfo', E: '1499405658849', T: true, W: true, D: true,
 *   B: [{ a: 'BTC', f: '0.5', l: '0.1' }] });
 * // right({ e: 'outboundAccountInfo', E: 1499405658849, ..., B: [{ a: 'BTC', f: '0.5', l: '0.1' }] })
 * ```
 */
export const OutboundAccountInfoCodec = struct(
  'OutboundAccountInfo',
  { e: t.literal('outboundAccountInfo'), E: IntFromNumberOrString, B: t.array(BalanceCodec) },
  { T: BooleanFromStringOrBoolean, W: BooleanFromStringOrBoolean, D: BooleanFromStringOrBoolean },
);
/**
 * A decoded account update.
 *
 * @example
 * ```ts
 * import type { OutboundAccountInfo } from 'ex-streams';
 *
 * const update: OutboundAccountInfo = { e: 'outboundAccountInfo', E: 1700000000000, B: [{ a: 'USDT', f: '99000', l: '1000' }] };
 * ```
 */
export type OutboundAccountInfo = t.TypeOf<typeof OutboundAccountInfoCodec>;
