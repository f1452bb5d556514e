import * as t from 'io-ts';
import { BooleanFromStringOrBoolean, DecimalString, IdFromNumberOrString, IntFromNumberOrString } from '../primitives';
import { declaredAs, struct } from '../struct';
import { isRecord } from '../../internal/guards';
import type { DecimalText } from '../../decimal';

/**
 * One trade of `GET /quote/v1/trades`: time `t` (ms), price `p`, quantity `q` (decimal text), `ibm` (the
 * buyer was the maker). Numbers given as text are accepted; extra fields ignored.
 *
 * @example
 * ```ts
 * import { RestTradeCodec } from 'ex-streams/codecs';
 * RestTradeCodec.decode({ t: '1700000000000', p: '30000.5', q: 0.25, ibm: 'true' });
 * // right({ t: 1700000000000, p: '30000.5', q: '0.25', ibm: true })
 * ```
 */
export const RestTradeCodec = declaredAs<RestTrade>()(struct(
  'RestTrade',
  { t: IntFromNumberOrString, p: DecimalString, q: DecimalString },
  { ibm: BooleanFromStringOrBoolean, v: IdFromNumberOrString },
));
/**
 * A decoded public trade of `GET /quote/v1/trades`.
 *
 * @example
 * ```ts
 * import type { RestTrade } from 'ex-streams/rest';
 *
 * const trade: RestTrade = { t: 1700000000000, p: '30000.5', q: '0.25', ibm: true };
 * ```
 */
export interface RestTrade {
  /** Trade time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Price: decimal text, quote asset per unit of base asset. */
  readonly p: DecimalText;
  /** Quantity: decimal text, in base asset units. */
  readonly q: DecimalText;
  /** "Is buyer maker": `true` when the buyer was the maker, so the taker sold (as the stream's `TradeRecord.m`), when sent. */
  readonly ibm?: boolean;
  /** Trade id: text, 64-bit (as `TradeRecord.v` on the stream), when sent. */
  readonly v?: string;
}

/**
 * A decoded candle of `GET /quote/v1/klines`: open time `t` (ms), `o`, `h`, `l`, `c`, volume `v` (decimal
 * text), and when the service sends them the close time `closeTime`, quote volume `qv` and trade count `n`.
 *
 * @example
 * ```ts
 * import type { RestKline } from 'ex-streams/rest';
 *
 * const candle: RestKline = { t: 1700000000000, o: '1', h: '2', l: '0.5', c: '1.5', v: '10' };
 * ```
 */
export interface RestKline {
  /** Open time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Open price: decimal text. */
  readonly o: DecimalText;
  /** High price: decimal text. */
  readonly h: DecimalText;
  /** Low price: decimal text. */
  readonly l: DecimalText;
  /** Close price: decimal text. */
  readonly c: DecimalText;
  /** Volume: decimal text, in base asset units. */
  readonly v: DecimalText;
  /** Close time: milliseconds since the Unix epoch, when sent. */
  readonly closeTime?: number;
  /** Quote asset volume: decimal text, when sent. */
  readonly qv?: DecimalText;
  /** Number of trades, when sent. */
  readonly n?: number;
}

const KLINE_FIELDS = [
  ['t', IntFromNumberOrString],
  ['o', DecimalString],
  ['h', DecimalString],
  ['l', DecimalString],
  ['c', DecimalString],
  ['v', DecimalString],
  ['closeTime', IntFromNumberOrString],
  ['qv', DecimalString],
  ['n', IntFromNumberOrString],
] as const;

/**
 * One candle of `GET /quote/v1/klines`, sent as an array `[openTime, open, high, low, close, volume,
 * closeTime?, quoteVolume?, trades?, ...]` (numbers or text; further entries ignored), decoded to a
 * {@link RestKline}. Fewer than six entries fail.
 *
 * @example
 * ```ts
 * import { RestKlineCodec } from 'ex-streams/codecs';
 * RestKlineCodec.decode([1700000000000, '1', '2', '0.5', '1.5', '10', 1700000059999, '15', 3]);
 * // right({ t: 1700000000000, o: '1', h: '2', l: '0.5', c: '1.5', v: '10', closeTime: 1700000059999, qv: '15', n: 3 })
 * ```
 */
export const RestKlineCodec = new t.Type<RestKline, unknown, unknown>(
  'RestKline',
  (u): u is RestKline => isRecord(u) && typeof u['t'] === 'number',
  (u, c) => {
    if (!Array.isArray(u) || u.length < 6) return t.failure(u, c);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < KLINE_FIELDS.length && i < u.length; i++) {
      const [name, codec] = KLINE_FIELDS[i]!;
      const r = codec.validate(u[i], t.appendContext(c, String(i), codec, u[i]));
      if (r._tag === 'Left') return r;
      out[name] = r.right;
    }
    return t.success(out as unknown as RestKline);
  },
  (a) => KLINE_FIELDS.map(([name]) => a[name]).filter((v) => v !== undefined),
);
