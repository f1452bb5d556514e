import { asyncScheduler, concatMap, defer, from, map, of, throwError, timeout, type Observable } from 'rxjs';
import { formEncode, paramPairs, type Params } from '../auth/formEncode';
import { signer } from '../auth/signer';
import { validRecvWindow } from '../auth/signConfig';
import { ConfigError, RequestTimeoutError } from '../errors';
import { defaultFetch } from './defaultFetch';
import { fetchText, type RawResponse } from './fetchText';
import type { RestClientConfig, RestRequest } from './types';

/** Default name of the API-key header. @internal */
export const DEFAULT_API_KEY_HEADER = 'X-EX-APIKEY';
/** Header carrying the two-factor token (SPEC, Authentication 10). @internal */
export const TWO_FA_HEADER = 'X-TWO-FA-TOKEN';
/** Content type of form bodies, as the sample clients send it. @internal */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded;charset=UTF-8';
/** Content type of JSON bodies (HashKey's batch placement). @internal */
export const JSON_CONTENT_TYPE = 'application/json';

/** Default deadline of a request, in ms. @internal */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** An answer plus the literal secrets of its request (for redaction) and when it was sent and received. @internal */
export interface Answer extends RawResponse {
  readonly secrets: readonly (string | undefined)[];
  /** The scheduler's time when the request was handed to `fetch`. */
  readonly sentAt: number;
  /** The scheduler's time when the answer's body had arrived. */
  readonly receivedAt: number;
}

/** Throws a {@link ConfigError} unless `ms` is a positive finite number of milliseconds. @internal */
export function validTimeout(option: string, ms: number): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
    throw new ConfigError(option, `must be a positive number of milliseconds (got ${String(ms)})`);
  }
  return ms;
}

/** Sends one request (signed or not); the shared core of {@link restClient}. @internal */
export type Transport = (request: RestRequest<unknown>, signed: boolean) => Observable<Answer>;

interface Parts {
  readonly query: string;
  readonly body: string | undefined;
  readonly signature: string | undefined;
}

function listenKeysIn(params: Params | undefined): string[] {
  return params === undefined ? [] : paramPairs(params).filter(([n]) => n === 'listenKey').map(([, v]) => v);
}

function freshToken(provider: () => string | Promise<string>): Observable<string> {
  return defer(() => {
    const token = provider();
    return typeof token === 'string' ? of(token) : from(token);
  }).pipe(
    map((token) => {
      if (typeof token !== 'string' || token.length === 0) {
        throw new ConfigError('twoFactorToken', 'must return a non-empty string');
      }
      return token;
    }),
  );
}

/** The {@link ConfigError} a request would fail with before anything is sent, if any. @internal */
export function problemOf(config: RestClientConfig, request: RestRequest<unknown>, canSign: boolean, signed: boolean): ConfigError | undefined {
  const security = request.security ?? 'NONE';
  if (typeof request.path !== 'string' || /[?#]/.test(request.path)) {
    return new ConfigError('path', 'must be a path without query string or fragment (pass parameters in `query`)');
  }
  if (request.method === 'GET' && request.body !== undefined) return new ConfigError('body', 'is not allowed on GET requests');
  if (request.jsonBody !== undefined) {
    if (typeof request.jsonBody !== 'string') return new ConfigError('jsonBody', 'must be JSON text');
    if (request.method === 'GET') return new ConfigError('jsonBody', 'is not allowed on GET requests');
    if (request.body !== undefined) return new ConfigError('jsonBody', 'and body cannot both be given');
  }
  if (security !== 'NONE' && !config.apiKey) return new ConfigError('apiKey', `is required for ${security} requests`);
  if (signed && !canSign) {
    return new ConfigError('secretKey', 'is required for signed requests (TRADE, USER_DATA, listen keys); or pass sign');
  }
  if (request.timeoutMs !== undefined && !(typeof request.timeoutMs === 'number' && Number.isFinite(request.timeoutMs) && request.timeoutMs > 0)) {
    return new ConfigError('timeoutMs', `must be a positive number of milliseconds (got ${String(request.timeoutMs)})`);
  }
  if (request.twoFactor && config.twoFactorToken === undefined) {
    return new ConfigError('twoFactorToken', 'is required for requests with twoFactor: true');
  }
  return undefined;
}

/**
 * Validates a client config (throws {@link ConfigError}) and returns its transport: per subscription it asks
 * for a fresh 2FA token when asked, signs (reading the clock plus `serverTimeOffsetMs()`) and makes one fetch
 * call, aborted with a {@link RequestTimeoutError} when no answer arrives by its deadline.
 * @internal
 */
export function transport(config: RestClientConfig, serverTimeOffsetMs: () => number): Transport {
  const { venue, apiKey, recvWindow, scheduler = asyncScheduler } = config;
  const { baseUrl = venue?.restUrl, apiKeyHeader = venue?.apiKeyHeader ?? DEFAULT_API_KEY_HEADER } = config;
  const requestTimeoutMs = validTimeout('requestTimeoutMs', config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  if (typeof baseUrl !== 'string' || baseUrl === '') throw new ConfigError('baseUrl', 'must be a non-empty URL (or give a venue)');
  if (typeof apiKeyHeader !== 'string' || apiKeyHeader === '') throw new ConfigError('apiKeyHeader', 'must be a non-empty header name');
  const recvWindowMs = validRecvWindow(recvWindow);
  const cap = venue?.maxRecvWindowMs;
  if (cap !== undefined && recvWindowMs > cap) {
    throw new ConfigError('recvWindow', `must be at most ${cap} ms on ${venue?.name ?? 'this venue'} (got ${recvWindowMs})`);
  }
  const canSign = config.secretKey !== undefined || config.sign !== undefined;
  const sign = canSign
    ? signer({ secretKey: config.secretKey, sign: config.sign, recvWindow, scheduler, serverTimeOffsetMs })
    : undefined;
  const root = baseUrl.replace(/\/+$/, '');
  // Node: node:http(s) on this client's keep-alive agents; browsers: the global fetch at call time.
  const fetchFn = config.fetch ?? defaultFetch();

  return (request, signed) =>
    defer(() => {
      const problem = problemOf(config, request, sign !== undefined, signed);
      if (problem) return throwError(() => problem);
      const { method, path, query, body, jsonBody, security = 'NONE', twoFactor = false, timeoutMs = requestTimeoutMs } = request;
      const parts$: Observable<Parts> =
        signed && sign
          ? sign({ query, body, jsonBody })
          : of({ query: formEncode(query ?? {}), body: jsonBody ?? (body === undefined ? undefined : formEncode(body)), signature: undefined });
      const token$: Observable<string | undefined> =
        twoFactor && config.twoFactorToken ? freshToken(config.twoFactorToken) : of(undefined);
      // The token first: a provider may wait for a person, and the timestamp must be read after that.
      return token$.pipe(
        concatMap((token) => parts$.pipe(map((parts) => ({ parts, token })))),
        concatMap(({ parts, token }) => {
          const headers: Record<string, string> = {};
          if (security !== 'NONE' && apiKey) headers[apiKeyHeader] = apiKey;
          if (parts.body !== undefined) headers['Content-Type'] = jsonBody !== undefined ? JSON_CONTENT_TYPE : FORM_CONTENT_TYPE;
          if (token !== undefined) headers[TWO_FA_HEADER] = token;
          const fullPath = path.startsWith('/') ? path : `/${path}`;
          const secrets = [config.secretKey, apiKey, parts.signature, token, ...listenKeysIn(query), ...listenKeysIn(body)];
          const sentAt = scheduler.now();
          return fetchText(fetchFn, {
            method,
            url: root + fullPath + (parts.query === '' ? '' : `?${parts.query}`),
            path: fullPath,
            headers,
            body: parts.body,
            secrets,
          }).pipe(
            // Unsubscribing from fetchText on the deadline aborts the call.
            timeout({ first: timeoutMs, scheduler, with: () => throwError(() => new RequestTimeoutError(method, fullPath, timeoutMs)) }),
            map((response): Answer => ({ ...response, secrets, sentAt, receivedAt: scheduler.now() })),
          );
        }),
      );
    });
}
