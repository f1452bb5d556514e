import { createHmac, timingSafeEqual } from 'node:crypto';
import { rejections, type HttpRejection } from './httpErrors';

/** The parts of an HTTP request that verification reads. @internal */
export interface RawRequest {
  /** Raw query string, without the '?'. */
  readonly query: string;
  /** Raw body text. */
  readonly body: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Parameters of a request, first occurrence wins (query before body). @internal */
export type RequestParams = ReadonlyMap<string, string>;

interface Pair {
  readonly name: string;
  readonly value: string;
  readonly raw: string;
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

const pairs = (raw: string): Pair[] =>
  raw === ''
    ? []
    : raw.split('&').map((part) => {
        const eq = part.indexOf('=');
        const name = decode(eq < 0 ? part : part.slice(0, eq));
        return { name, value: eq < 0 ? '' : decode(part.slice(eq + 1)), raw: part };
      });

/** Query and body parameters merged (query first; the first occurrence of a name wins). @internal */
export function requestParams(req: Pick<RawRequest, 'query' | 'body'>): RequestParams {
  const out = new Map<string, string>();
  for (const p of [...pairs(req.query), ...pairs(req.body)]) if (p.name !== '' && !out.has(p.name)) out.set(p.name, p.value);
  return out;
}

/**
 * totalParams of the specification: raw query immediately followed by raw body, with the `signature=…`
 * pair removed from whichever part holds it (all other bytes kept).
 * @internal
 */
export function signedPayload(req: Pick<RawRequest, 'query' | 'body'>): string {
  const strip = (raw: string): string =>
    raw === '' ? raw : raw.split('&').filter((part) => decode(part.split('=')[0] ?? '') !== 'signature').join('&');
  return strip(req.query) + strip(req.body);
}

/** Lower-case hex HMAC-SHA256. @internal */
export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

const header = (req: RawRequest, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** What verification needs to know about the simulated account. @internal */
export interface AuthContext {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly apiKeyHeader: string;
  readonly serverTime: () => number;
}

/** Checks the API-key header. @internal */
export function verifyApiKey(ctx: AuthContext, req: RawRequest): HttpRejection | undefined {
  const key = header(req, ctx.apiKeyHeader);
  if (key === undefined || key === '') return rejections.missingApiKey;
  const a = Buffer.from(key);
  const b = Buffer.from(ctx.apiKey);
  return a.length === b.length && timingSafeEqual(a, b) ? undefined : rejections.invalidApiKey;
}

const countOf = (req: RawRequest, name: string): number =>
  [...pairs(req.query), ...pairs(req.body)].filter((p) => p.name === name).length;

/**
 * Full verification of a signed (TRADE / USER_DATA) request, in this order: API key, `signature` present
 * (once), `timestamp` present and an integer, `recvWindow` a positive integer, the time rule
 * `timestamp < serverTime + 1000 && serverTime - timestamp <= recvWindow`, then the HMAC (hex, any case,
 * constant-time compare).
 * @internal
 */
export function verifySigned(ctx: AuthContext, req: RawRequest): HttpRejection | undefined {
  const keyError = verifyApiKey(ctx, req);
  if (keyError !== undefined) return keyError;
  const params = requestParams(req);
  const signature = params.get('signature');
  if (signature === undefined) return rejections.missingParameter('signature');
  if (countOf(req, 'signature') > 1) return rejections.duplicateParameter('signature');
  const timestampText = params.get('timestamp');
  if (timestampText === undefined) return rejections.missingParameter('timestamp');
  if (!/^\d{1,16}$/.test(timestampText)) return rejections.illegalTimestamp;
  const recvWindowText = params.get('recvWindow');
  if (recvWindowText !== undefined && !/^0*[1-9]\d{0,15}$/.test(recvWindowText)) return rejections.invalidRecvWindow;
  const timestamp = Number(timestampText);
  const recvWindow = recvWindowText === undefined ? 5000 : Number(recvWindowText);
  const serverTime = ctx.serverTime();
  if (!(timestamp < serverTime + 1000 && serverTime - timestamp <= recvWindow)) return rejections.outsideRecvWindow;
  const expected = Buffer.from(hmacHex(ctx.secretKey, signedPayload(req)), 'utf8');
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : rejections.badSignature;
}
