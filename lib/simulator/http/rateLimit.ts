import { rejections, type HttpRejection } from './httpErrors';

/**
 * The simulator's rate limit (`SimulatorOptions.rateLimit`): requests per fixed window per client (the API
 * key when the request carries the account's key, else the IP). Over the limit a request gets 429 with
 * `Retry-After` (seconds to the window's end); a client that sends `banAfter` more requests while limited
 * is banned for `banMs`: 418 with `Retry-After` (seconds to the ban's end) for everything it sends meanwhile.
 *
 * @example
 * ```ts
 * import { startSimulator, type RateLimitOptions } from 'ex-streams/simulator';
 * const rateLimit: RateLimitOptions = { maxRequests: 10, windowMs: 1000, banAfter: 3, banMs: 30_000 };
 * const sim = await startSimulator({ rateLimit });
 * ```
 */
export interface RateLimitOptions {
  /** Requests a client may send per window. */
  readonly maxRequests: number;
  /** Window length (ms), default 1000. */
  readonly windowMs?: number | undefined;
  /** Requests answered 429 in a row after which the client is banned (418), default 5. */
  readonly banAfter?: number | undefined;
  /** Ban length (ms), default 60 000. */
  readonly banMs?: number | undefined;
  /**
   * Answer a request over the limit the way HashKey answers some limits: HTTP 400 with this body code (e.g.
   * `'0003'`, `-1015`) and no `Retry-After`, instead of 429 with `Retry-After`. The ban (418) is unchanged.
   * Default none (429).
   */
  readonly bodyCode?: number | string | undefined;
}

interface ClientState {
  windowStart: number;
  count: number;
  limited: number;
  bannedUntil: number;
}

/** A rejection with its `Retry-After` (seconds). @internal */
export interface Limited {
  readonly rejection: HttpRejection;
  /** `undefined` for a limit answered with a body code (no `Retry-After`). */
  readonly retryAfterS: number | undefined;
}

const MAX_CLIENTS = 10_000;

/** Fixed-window counters per client. @internal */
export class RateLimiter {
  private readonly clients = new Map<string, ClientState>();
  private readonly windowMs: number;
  private readonly banAfter: number;
  private readonly banMs: number;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    this.windowMs = Math.max(1, options.windowMs ?? 1000);
    this.banAfter = Math.max(1, options.banAfter ?? 5);
    this.banMs = Math.max(1, options.banMs ?? 60_000);
  }

  /** Counts one request of `client`; the rejection when it is over the limit or banned. */
  take(client: string): Limited | undefined {
    const now = this.now();
    let s = this.clients.get(client);
    if (s === undefined) {
      if (this.clients.size >= MAX_CLIENTS) this.prune(now);
      s = { windowStart: now, count: 0, limited: 0, bannedUntil: 0 };
      this.clients.set(client, s);
    }
    if (now < s.bannedUntil) return { rejection: rejections.banned, retryAfterS: Math.ceil((s.bannedUntil - now) / 1000) };
    if (now >= s.windowStart + this.windowMs) {
      s.windowStart = now;
      s.count = 0;
    }
    s.count += 1;
    if (s.count <= this.options.maxRequests) {
      s.limited = 0;
      return undefined;
    }
    s.limited += 1;
    if (s.limited > this.banAfter) {
      s.bannedUntil = now + this.banMs;
      s.limited = 0;
      return { rejection: rejections.banned, retryAfterS: Math.ceil(this.banMs / 1000) };
    }
    const { bodyCode } = this.options;
    if (bodyCode !== undefined) {
      const msg = String(bodyCode) === '0003' ? rejections.rateLimitCode.msg : 'Too many requests; please slow down.';
      return { rejection: { status: 400, code: bodyCode, msg }, retryAfterS: undefined };
    }
    return { rejection: rejections.tooManyRequests, retryAfterS: Math.max(1, Math.ceil((s.windowStart + this.windowMs - now) / 1000)) };
  }

  private prune(now: number): void {
    for (const [k, s] of this.clients) if (now >= s.bannedUntil && now >= s.windowStart + this.windowMs) this.clients.delete(k);
    if (this.clients.size >= MAX_CLIENTS) this.clients.clear();
  }
}
