import { randomAlnum } from '../core/random';

/**
 * Two-factor tokens of the simulated account: single use, valid `ttlMs` (30 s) after issue.
 * @internal
 */
export class TwoFactor {
  enabled: boolean;
  private readonly issued = new Map<string, number>();

  constructor(
    enabled: boolean,
    private readonly now: () => number,
    private readonly random: () => number,
    private readonly ttlMs: number,
  ) {
    this.enabled = enabled;
  }

  issue(): string {
    const token = randomAlnum(this.random, 32);
    this.issued.set(token, this.now());
    return token;
  }

  /** Consumes the token: true when it was issued, unused and at most `ttlMs` old. */
  consume(token: string): boolean {
    const at = this.issued.get(token);
    if (at === undefined) return false;
    this.issued.delete(token);
    return this.now() - at <= this.ttlMs;
  }
}
