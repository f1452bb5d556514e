import * as t from 'io-ts';
import {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  DecimalString,
  IdFromNumberOrString,
  JsonScalarCodec,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from './primitives';
import { AsIs, FAIL, primitive } from './fastCheck';
import { declaredAs, nullable, struct } from './struct';
import type { DecimalText } from '../decimal';
import type { JsonScalar } from './primitives';

/**
 * The order statuses (`X`) the library knows, in the order an order moves through them: `PENDING_NEW` (placed,
 * not yet accepted by the matching engine; HashKey's placement answer may say it), `NEW` (on the book),
 * `PARTIALLY_FILLED`, `PENDING_CANCEL` (a cancel was asked and is not done yet; not final), then the final ones:
 * `FILLED`, `PARTIALLY_CANCELED`, `CANCELED`, `REJECTED`. A `switch` over it can be exhaustive.
 *
 * @example
 * ```ts
 * import { KnownOrderStatusCodec } from 'ex-streams/codecs';
 * KnownOrderStatusCodec.is('PENDING_CANCEL'); // true
 * KnownOrderStatusCodec.is('EXPIRED');        // false
 * ```
 */
export const KnownOrderStatusCodec = t.keyof(
  {
    PENDING_NEW: null,
    NEW: null,
    PARTIALLY_FILLED: null,
    PENDING_CANCEL: null,
    FILLED: null,
    PARTIALLY_CANCELED: null,
    CANCELED: null,
    REJECTED: null,
  },
  'KnownOrderStatus',
);
/**
 * An order status the library knows (see {@link KnownOrderStatusCodec}).
 *
 * @example
 * ```ts
 * import type { KnownOrderStatus } from 'ex-streams';
 *
 * const open: KnownOrderStatus[] = ['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'PENDING_CANCEL'];
 * ```
 */
export type KnownOrderStatus = t.TypeOf<typeof KnownOrderStatusCodec>;

/**
 * An order status as the venue sent it: one of the {@link KnownOrderStatus} values, or any other text kept as it
 * is (a status a deployment adds). An unknown status is never final: see `isFinalOrderStatus`.
 *
 * @example
 * ```ts
 * import { isFinalOrderStatus, type OrderStatus } from 'ex-streams';
 *
 * const label = (status: OrderStatus): string => (isFinalOrderStatus(status) ? `done (${status})` : `open (${status})`);
 * label('PENDING_CANCEL'); // 'open (PENDING_CANCEL)'
 * ```
 */
export type OrderStatus = KnownOrderStatus | (string & {});

/**
 * An order status (`X`): any text. The known ones ({@link KnownOrderStatusCodec}) and any other text are kept as
 * sent, so a report with a status this library does not know still arrives (and never finishes its order). A
 * non-text value fails.
 *
 * @example
 * ```ts
 * import { OrderStatusCodec } from 'ex-streams/codecs';
 * OrderStatusCodec.decode('PENDING_NEW'); // right('PENDING_NEW')
 * OrderStatusCodec.decode('EXPIRED');     // right('EXPIRED')
 * OrderStatusCodec.decode(4);             // left(...)
 * ```
 */
export const OrderStatusCodec: t.Type<OrderStatus, OrderStatus, unknown> = primitive(
  'OrderStatus',
  (u): u is OrderStatus => typeof u === 'string',
  (u) => (typeof u === 'string' ? u : FAIL),
  AsIs.text,
);

/**
 * Whether `status` is final: `FILLED`, `PARTIALLY_CANCELED`, `CANCELED` or `REJECTED`. `PENDING_NEW`,
 * `NEW`, `PARTIALLY_FILLED`, `PENDING_CANCEL` and every status the library does not know are not.
 *
 * @example
 * ```ts
 * import { isFinalOrderStatus } from 'ex-streams';
 * isFinalOrderStatus('CANCELED');       // true
 * isFinalOrderStatus('PENDING_CANCEL'); // false
 * isFinalOrderStatus('EXPIRED');        // false (unknown: never final)
 * ```
 */
export function isFinalOrderStatus(status: OrderStatus): boolean {
  return status === 'FILLED' || status === 'PARTIALLY_CANCELED' || status === 'CANCELED' || status === 'REJECTED';
}

/**
 * An order side (`S`): `BUY` or `SELL`.
 *
 * @example
 * ```ts
 * import { OrderSideCodec } from 'ex-streams/codecs';
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
 * A decoded order update: the private `executionReport` event (SPEC, Private stream payloads). Amounts
 * are decimal text (convert at the edge with `decimalToNumber`); ids are text.
 *
 * @example
 * ```ts
 * import type { ExecutionReport } from 'ex-streams';
 *
 * const progress = (r: ExecutionReport): string => `${r.s} ${r.S} ${r.i}: ${r.X}, ${r.z} of ${r.q} filled`;
 * // 'BTCUSDT BUY 1900000000000000001: PARTIALLY_FILLED, 0.4 of 1 filled'
 * ```
 */
export interface ExecutionReport {
  /** Event type, always `'executionReport'`. */
  readonly e: 'executionReport';
  /** Event time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly E: number;
  /** Symbol (currency pair), text. */
  readonly s: string;
  /** Order id: text, 64-bit, compare as text (a number on the wire is turned into text). */
  readonly i: string;
  /** Client order id: text, may be `''` (a number on the wire is turned into text). */
  readonly c: string;
  /** Side: `'BUY'` or `'SELL'`. */
  readonly S: OrderSide;
  /** Order type, text as sent (e.g. `'LIMIT'`). */
  readonly o: string;
  /** Current order status (see {@link OrderStatus}). */
  readonly X: OrderStatus;
  /** Order quantity: decimal text, in base asset units. */
  readonly q: DecimalText;
  /** Order price: decimal text, quote asset per unit of base asset. */
  readonly p: DecimalText;
  /** Cumulative filled quantity: decimal text, in base asset units. */
  readonly z: DecimalText;
  /** Cumulative quote asset transacted: decimal text; the average price is `Z / z` (see `averagePrice`). */
  readonly Z: DecimalText;
  /** Time in force, text as sent (e.g. `'GTC'`), when sent. */
  readonly f?: string;
  /** Requested cash amount: decimal text, or `''` when it does not apply. */
  readonly reqAmt?: string;
  /** Execution id: text, `''` on a NEW report (a number on the wire is turned into text). */
  readonly d?: string;
  /** Last executed quantity: decimal text (base asset), or `''` before any fill. */
  readonly l?: string;
  /** Unfilled quantity: decimal text (base asset), or `''`. */
  readonly r?: string;
  /** Last executed price: decimal text, or `''` before any fill. */
  readonly L?: string;
  /** Average executed price: decimal text, or `''` before any fill. */
  readonly V?: string;
  /** Commission amount: decimal text (in the asset `N`), or `''` before any fill. */
  readonly n?: string;
  /** Commission asset: text, or `null` when none applies yet. */
  readonly N?: string | null;
  /** "Whether the trade is normal" (the SPEC says: ignore). */
  readonly u?: boolean;
  /** Whether the order is working (on the book). */
  readonly w?: boolean;
  /** Whether the order is a limit-maker order (not the maker flag of a fill: see `TicketInfo.m`). */
  readonly m?: boolean;
  /** Order creation time: milliseconds since the Unix epoch. */
  readonly O?: number;
  /** Order update time: milliseconds since the Unix epoch. */
  readonly U?: number;
  /** Order cancel reject reason, text (e.g. `'USER_CANCEL'`). */
  readonly x?: string;
  /**
   * An order id HashKey adds to its reports (64-bit, text; a number on the wire is turned into text). Its meaning is
   * not documented: in ccxt's recorded HashKey frames it is another order's id.
   */
  readonly M?: string;
  /** A field HashKey's reports may carry (undocumented): kept as sent (text, number, boolean or `null`). */
  readonly F?: JsonScalar;
  /** An account id HashKey adds (text; `'0'` in the recorded spot frames; a number on the wire is turned into text). */
  readonly A?: string;
  /**
   * Whether the order closes a position (contract orders), kept as sent: `true` / `false`, or `''` as spot reports
   * carry it.
   */
  readonly C?: JsonScalar;
  /** Leverage, text as sent (`'0'` on spot, e.g. `'5'` on contracts; a number on the wire is turned into text). */
  readonly v?: string;
  /** A field HashKey's reports may carry (undocumented): kept as sent (text, number, boolean or `null`). */
  readonly rt?: JsonScalar;
  /** A field HashKey's reports may carry (undocumented): kept as sent (text, number, boolean or `null`). */
  readonly T?: JsonScalar;
}

/**
 * The codec of {@link ExecutionReport}, the private `executionReport` event: one order update (SPEC,
 * Private stream payloads).
 *
 * Required (what folding order state needs): `e` (`'executionReport'`), `E` (event time, ms), `s`
 * (symbol), `i` (order id, text), `c` (client order id, text, may be empty; a number is turned into text), `S` (side),
 * `o` (order type), `X` (status), `q` (quantity), `p` (price), `z` (cumulative filled quantity), `Z`
 * (cumulative quote quantity; average price = `Z / z`, see `averagePrice`).
 *
 * Optional: `f` (time in force), `reqAmt`, `l`, `r`, `L`, `V`, `n` (decimal text, or `""` before they
 * apply), `d` (execution id, text, `""` on a NEW report), `N` (commission asset, text or `null`), `u`, `w`, `m` (flags), `O`, `U` (ms), `x` (reject
 * reason); HashKey's additions `M`, `A`, `v` (text) and `C`, `F`, `rt`, `T` (any JSON scalar, kept as sent). The status `X` is any text (see {@link OrderStatusCodec}). Extra fields are kept.
 *
 * @example
 * ```ts
 * import { ExecutionReportCodec } from 'ex-streams/codecs';
 * ExecutionReportCodec.decode({ e: 'executionReport', E: 1499405658658, s: 'BTCUSDT', c: 1000087761, S: 'BUY',
 *   o: 'LIMIT', f: 'GTC', q: '1.0', p: '0.10264410', X: 'NEW', i: '4293153', z: '0.0', Z: '0.0', N: null });
 * // right({ ..., c: '1000087761', i: '4293153', N: null })
 * ```
 */
export const ExecutionReportCodec = declaredAs<ExecutionReport>()(
  struct(
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
      // HashKey's additions, last (the struct reader's literals of the common case leave out absent trailing fields):
      // the ones its spot frames carry first.
      C: JsonScalarCodec,
      v: TextFromNumberOrString,
      M: TextFromNumberOrString,
      A: TextFromNumberOrString,
      F: JsonScalarCodec,
      rt: JsonScalarCodec,
      T: JsonScalarCodec,
    },
  ),
);
