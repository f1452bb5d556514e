/**
 * A parameter value. Numbers and booleans are sent as `String(value)`; pass prices and quantities as decimal text.
 *
 * @example
 * ```ts
 * import { formEncode, type ParamValue } from 'ex-streams/signing';
 *
 * const values: ParamValue[] = ['0.01', 5000, true];
 * formEncode([['quantity', values[0] ?? ''], ['recvWindow', 5000]]); // 'quantity=0.01&recvWindow=5000'
 * ```
 */
export type ParamValue = string | number | boolean;

/**
 * Request parameters: a record (sent in insertion order, `undefined` values skipped) or an ordered list of
 * `[name, value]` pairs (sent in the order given, repeated names allowed).
 *
 * @example
 * ```ts
 * import { formEncode, type Params } from 'ex-streams/signing';
 *
 * const params: Params = { symbol: 'BTCUSDT', side: 'BUY', price: undefined, quantity: '0.01' };
 * formEncode(params); // 'symbol=BTCUSDT&side=BUY&quantity=0.01'
 * ```
 */
export type Params =
  | Readonly<Record<string, ParamValue | undefined>>
  | ReadonlyArray<readonly [string, ParamValue]>;

/** The parameters as an ordered list of pairs, `undefined` values dropped. @internal */
export function paramPairs(params: Params): Array<readonly [string, string]> {
  const entries: ReadonlyArray<readonly [string, ParamValue | undefined]> = Array.isArray(params)
    ? (params as ReadonlyArray<readonly [string, ParamValue]>)
    : Object.entries(params as Readonly<Record<string, ParamValue | undefined>>);
  const out: Array<readonly [string, string]> = [];
  for (const [name, value] of entries) {
    if (value !== undefined) out.push([name, String(value)]);
  }
  return out;
}

/**
 * Encodes parameters as `application/x-www-form-urlencoded` text (UTF-8), keeping their order: exactly what
 * `URLSearchParams#toString()` produces. A space becomes `+`; `&`, `=`, `+`, `%` and every non-ASCII
 * character are percent-encoded as UTF-8 bytes; `*-._` and ASCII letters and digits stay as they are.
 * `undefined` values are skipped.
 *
 * The client signs the very string this function returns and sends that same string, so the signed text
 * and the sent text are always the same bytes.
 *
 * @example
 * ```ts
 * import { formEncode } from 'ex-streams/signing';
 * formEncode({ symbol: 'LTCBTC', side: 'BUY', note: 'a&b=c d', skipped: undefined });
 * // 'symbol=LTCBTC&side=BUY&note=a%26b%3Dc+d'
 * formEncode([['price', '0.1'], ['quantity', 1]]); // 'price=0.1&quantity=1'
 * ```
 */
export function formEncode(params: Params): string {
  const search = new URLSearchParams();
  for (const [name, value] of paramPairs(params)) search.append(name, value);
  return search.toString();
}
