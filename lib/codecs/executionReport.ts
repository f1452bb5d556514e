import * as t from 'io-ts';
import {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from './primitives';
import { nullable, struct } from './struct';

/**
 * An order status (`X`): `NEW`, `PARTIALLY_FILLED`, `FILLED`, `PARTIALLY_CANCELED`, `CANCELED`,
 * `REJECTED`. Any other text fails, so a `switch` over it can be exhaustive.
 *
 * @example
 * ```ts
 * import { OrderStatusCodec } from 'ex-streams';
 * OrderStatusCodec.is('PARTIALLY_FILLED'); // true
 * ```
 */
export const OrderStatusCodec = t.keyof(
  { NEW: null, PARTIALLY_FILLED: null, FILLED: null, PARTIALLY_CANCELED: null, CANCELED: null, REJECTED: null },
  'OrderStatus',
);
/**
 * An order status.
 *
 * @example
 * ```ts
 * import type { OrderStatus } from 'ex-streams';
 *
 * const isFinished = (status: OrderStatus): boolean => status !== 'NEW' && status !== 'PARTIALLY_FILLED';
 * ```
 */
export type OrderStatus = t.TypeOf<typeof OrderStatusCodec>;

/**
 * An order side (`S`): `BUY` or `SELL`.
 *
 * @example
 * ```ts
 * import { OrderSideCodec } from 'ex-streams';
 * OrderSideCodec.is('SELL'); // true
 * ```
 */
export const OrderSideCodec = t.keyof({ BUY: null, SELL: null }, 'OrderSide');
/**
 * An order side.
 *
 * @example
 * ```ts
 * import type { OrderSide } from 'ex-streams';
 *
 * const side: OrderSide = 'BUY';
 * ```
 */
export type OrderSide = t.TypeOf<typeof OrderSideCodec>;

/**
 * The private `executionReport` event: one order update (SPEC, Private stream payloads).
 *
 * Required (what folding order state needs): `e` (`'executionReport'`), `E` (event time, ms), `s`
 * (symbol), `i` (order id, text), `c` (client order id, text, may be empty; a number is turned into text), `S` (side),
 * `o` (order type), `X` (status), `q` (quantity), `p` (price), `z` (cumulative filled quantity), `Z`
 * (cumulative quote quantity; average price = `Z / z`, see `averagePrice`).
 *
 * Optional: `f` (time in force), `reqAmt`, `l`, `r`, `L`, `V`, `n` (decimal text, or `""` before they
 * apply), `d` (execution id, text, `""` on a NEW report), `N` (commission asset, text or `null`), `u`, `w`, `m` (flags), `O`, `U` (ms), `x` (reject
 * reason). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { ExecutionReportCodec } from 'ex-streams';
 * ExecutionReportCodec.decode({ e: 'executionReport', E: 1499405658658, s: 'BTCUSDT', c: 1000087761, S: 'BUY',
 *   o: 'LIMIT', f: 'GTC', q: '1.0', p: '0.10264410', X: 'NEW', i: '4293153', z: '0.0', Z: '0.0', N: null });
 * // right({ ..., c: '1000087761', i: '4293153', N: null })
 * ```
 */
export const ExecutionReportCodec = struct(
  'ExecutionReport',
  {
    e: t.literal('executionReport'),
    E: IntFromNumberOrString,
    s: t.string,
    i: IdFromNumberOrString,
    c: TextFromNumberOrString,
    S: OrderSideCodec,
    o: t.string,
    X: OrderStatusCodec,
    q: DecimalString,
    p: DecimalString,
    z: DecimalString,
    Z: DecimalString,
  },
  {
    f: t.string,
    reqAmt: DecimalOrEmptyString,
    d: TextFromNumberOrString,
    l: DecimalOrEmptyString,
    r: DecimalOrEmptyString,
    L: DecimalOrEmptyString,
    V: DecimalOrEmptyString,
    n: DecimalOrEmptyString,
    N: nullable(t.string),
    u: BooleanFromStringOrBoolean,
    w: BooleanFromStringOrBoolean,
    m: BooleanFromStringOrBoolean,
    O: IntFromNumberOrString,
    U: IntFromNumberOrString,
    x: t.string,
  },
);
/**
 * A decoded order update.
 *
 * @example
 * ```ts
 * import type { ExecutionReport } from 'ex-streams';
 *
 * const progress = (r: ExecutionReport): string => `${r.s} ${r.S} ${r.i}: ${r.X}, ${r.z} of ${r.q} filled`;
 * // 'BTCUSDT BUY 1900000000000000001: PARTIALLY_FILLED, 0.4 of 1 filled'
 * ```
 */
export type ExecutionReport = t.TypeOf<typeof ExecutionReportCodec>;
