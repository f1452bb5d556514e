/**
 * The message that is signed: the encoded query string immediately followed by the encoded body, with no
 * separator (SPEC, Authentication 7). When all parameters are in one part, it is that part alone.
 *
 * @example
 * ```ts
 * import { totalParams } from 'ex-streams/signing';
 * totalParams('symbol=LTCBTC&side=BUY', 'quantity=1&timestamp=1499827319559');
 * // 'symbol=LTCBTC&side=BUYquantity=1&timestamp=1499827319559'
 * totalParams('', 'quantity=1'); // 'quantity=1'
 * ```
 */
export function totalParams(query: string, body: string): string {
  return query + body;
}
