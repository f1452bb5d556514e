import { asyncScheduler, defer, from, map, of, type Observable, type SchedulerLike } from 'rxjs';
import { ConfigError } from '../errors';
import { nowMs } from '../internal/clock';
import { formEncode, paramPairs, type Params } from './formEncode';
import { RESERVED_PARAMS, signFunctionOf, validRecvWindow, type SignFunction } from './signConfig';
import { totalParams } from './totalParams';

/**
 * Configuration of {@link signer}.
 *
 * @example
 * ```ts
 * import { signer, type SignerConfig } from 'ex-streams/signing';
 *
 * declare const secretKey: string;
 * const config: SignerConfig = { secretKey, recvWindow: 3000, serverTimeOffsetMs: () => 0 };
 * const sign = signer(config);
 * ```
 */
export interface SignerConfig {
  /** The API secret key; the signature is HMAC SHA256 keyed with it (`node:crypto`, synchronous, on Node; Web Crypto in browsers). Give this or `sign`. */
  readonly secretKey?: string | undefined;
  /** A custom signing function (e.g. a hardware module or a server round-trip): totalParams in, hex out. */
  readonly sign?: SignFunction | undefined;
  /** Validity window sent as `recvWindow`, a positive integer in ms. Default `5000`. */
  readonly recvWindow?: number | undefined;
  /** Clock of the `timestamp` (read through its `now()`). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** Estimate of serverTime - localTime in ms, read on every signature and added to `timestamp`. Default none (0). */
  readonly serverTimeOffsetMs?: (() => number) | undefined;
}

/**
 * The parts of a request to sign. A `body` (even an empty one) receives the signing parameters.
 *
 * @example
 * ```ts
 * import { signer, type SignRequest } from 'ex-streams/signing';
 *
 * declare const secretKey: string;
 * const request: SignRequest = { query: { symbol: 'LTCBTC' }, body: { quantity: '1', price: '0.1' } };
 * signer({ secretKey })(request).subscribe(({ query, body }) => console.log(query, body?.length));
 * ```
 */
export interface SignRequest {
  readonly query?: Params | undefined;
  readonly body?: Params | undefined;
  /**
   * A JSON body (exact text) instead of `body`: the signing parameters and the `signature` then go in the query,
   * and the signed message is the encoded query immediately followed by this text.
   */
  readonly jsonBody?: string | undefined;
}

/**
 * A signed request, ready to send: these exact strings are what was signed.
 *
 * @example
 * ```ts
 * import { signer, type SignedParams } from 'ex-streams/signing';
 *
 * declare const secretKey: string;
 * const send = ({ query, body }: SignedParams) =>
 *   fetch(`https://api.example.com/api/v1/spot/order?${query}`, {
 *     method: 'POST',
 *     headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
 *     body: body ?? null,
 *   });
 * signer({ secretKey })({ query: { symbol: 'LTCBTC' }, body: { quantity: '1' } }).subscribe((signed) => void send(signed));
 * ```
 */
export interface SignedParams {
  /** The encoded query string, without `?` (may be empty). */
  readonly query: string;
  /** The encoded body, or `undefined` when the request has none. */
  readonly body: string | undefined;
  /** The `timestamp` sent, in ms. */
  readonly timestamp: number;
  /** The hex signature, also appended as the last parameter of the body (or of the query when there is no body). Never log it. */
  readonly signature: string;
}

/**
 * Signs requests; see {@link signer}.
 *
 * @example
 * ```ts
 * import { firstValueFrom } from 'rxjs';
 * import { signer, type Signer } from 'ex-streams/signing';
 *
 * declare const secretKey: string;
 * const sign: Signer = signer({ secretKey });
 * const { query, timestamp } = await firstValueFrom(sign({ query: { symbol: 'LTCBTC' } }));
 * // query: 'symbol=LTCBTC&recvWindow=5000&timestamp=…&signature=…'
 * ```
 */
export type Signer = (request: SignRequest) => Observable<SignedParams>;

function checkReserved(params: Params | undefined, part: string): void {
  if (params === undefined) return;
  for (const [name] of paramPairs(params)) {
    if (RESERVED_PARAMS.includes(name)) {
      throw new ConfigError(`${part}.${name}`, 'is added by the signer and must not be passed');
    }
  }
}

function signWith(sign: SignFunction, message: string): Observable<string> {
  return defer(() => {
    const result = sign(message);
    return typeof result === 'string' ? of(result) : from(result);
  }).pipe(
    map((signature) => {
      if (typeof signature !== 'string' || signature.length === 0) {
        throw new ConfigError('sign', 'must return a non-empty string');
      }
      return signature;
    }),
  );
}

/**
 * Creates a function that signs a request without sending it (for your own HTTP code, a browser demo, or
 * the REST client). Signing a request appends `recvWindow` then `timestamp` to the body when the request has
 * one, else to the query; the signed message is `totalParams(query, body)` of the encoded parts; the
 * `signature` is then appended last to the same part. A `jsonBody` keeps its text: the parameters and the
 * signature go in the query, and the signed message is the query followed by the JSON text.
 *
 * The returned observable is cold: the clock (plus `serverTimeOffsetMs()`) is read at each subscription,
 * which emits one {@link SignedParams} and completes. Configuration problems (`recvWindow` not a positive
 * integer, no secret, both `secretKey` and `sign`) throw a {@link ConfigError} right here; a request
 * carrying `timestamp`, `recvWindow` or `signature` itself errors with a `ConfigError`.
 *
 * Config: `secretKey` or `sign`; `recvWindow` (default 5000); `scheduler` (default `asyncScheduler`);
 * `serverTimeOffsetMs` (default none).
 *
 * @example
 * ```ts
 * import { firstValueFrom } from 'rxjs';
 * import { signer } from 'ex-streams/signing';
 * const sign = signer({ secretKey: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j' });
 * const signed = await firstValueFrom(
 *   sign({ query: { symbol: 'LTCBTC', side: 'BUY' }, body: { quantity: '1', price: '0.1' } }),
 * );
 * signed.query; // 'symbol=LTCBTC&side=BUY'
 * signed.body;  // 'quantity=1&price=0.1&recvWindow=5000&timestamp=1700000000000&signature=<64 hex digits>'
 * ```
 */
export function signer(config: SignerConfig): Signer {
  const { recvWindow, scheduler = asyncScheduler, serverTimeOffsetMs } = config;
  const recvWindowMs = validRecvWindow(recvWindow);
  const sign = signFunctionOf(config);
  return (request) =>
    defer(() => {
      checkReserved(request.query, 'query');
      checkReserved(request.body, 'body');
      if (request.jsonBody !== undefined && request.body !== undefined) throw new ConfigError('jsonBody', 'and body cannot both be given');
      const offset = serverTimeOffsetMs?.() ?? 0;
      const timestamp = Math.floor(nowMs(scheduler) + (Number.isFinite(offset) ? offset : 0));
      const extra = formEncode([
        ['recvWindow', recvWindowMs],
        ['timestamp', timestamp],
      ]);
      const join = (a: string, b: string): string => (a === '' ? b : `${a}&${b}`);
      const { jsonBody } = request;
      const hasBody = request.body !== undefined;
      const query = formEncode(request.query ?? {});
      const body = hasBody ? formEncode(request.body ?? {}) : '';
      const signedQuery = hasBody ? query : join(query, extra);
      const signedBody = hasBody ? join(body, extra) : (jsonBody ?? '');
      return signWith(sign, totalParams(signedQuery, signedBody)).pipe(
        map((signature): SignedParams => {
          const tail = formEncode([['signature', signature]]);
          if (jsonBody !== undefined) return { query: join(signedQuery, tail), body: jsonBody, timestamp, signature };
          return hasBody
            ? { query: signedQuery, body: join(signedBody, tail), timestamp, signature }
            : { query: join(signedQuery, tail), body: undefined, timestamp, signature };
        }),
      );
    });
}
