import { randomBytes, timingSafeEqual } from 'node:crypto';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Whether `host` only accepts connections from this machine. @internal */
export const isLoopbackHost = (host: string): boolean => LOOPBACK.has(host.toLowerCase());

/**
 * The token the control routes require: the one given, else a random one when the simulator binds beyond
 * loopback, else none (loopback without a token keeps the control routes open).
 * @internal
 */
export function resolveControlToken(host: string, given: string | undefined): string | undefined {
  if (given !== undefined && given !== '') return given;
  return isLoopbackHost(host) ? undefined : randomBytes(24).toString('hex');
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * Whether a control request carries `token` in `X-SIM-CONTROL-TOKEN` or `Authorization: Bearer <token>`
 * (constant-time compare). Always true when there is no token.
 * @internal
 */
export function controlAuthorized(token: string | undefined, headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  if (token === undefined) return true;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(first(headers['authorization']) ?? '')?.[1];
  const given = first(headers['x-sim-control-token']) ?? bearer;
  if (given === undefined) return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
