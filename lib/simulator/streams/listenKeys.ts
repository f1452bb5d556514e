import { randomAlnum } from '../core/random';
import type { Timers } from '../core/timers';

/** The state of a listen key the simulator has issued. @internal */
export type ListenKeyState = 'active' | 'deleted' | 'expired';

/** Why a key stopped being valid. @internal */
export type ListenKeyEnd = 'deleted' | 'expired';

interface Entry {
  state: ListenKeyState;
  expiresAt: number;
  cancelTimer: () => void;
}

/**
 * The listen-key state machine of the specification for the simulated account: at most one active key;
 * POST returns (and extends) the active key or creates one; PUT resets validity; DELETE invalidates;
 * `validityMs` without PUT/POST expires the key. `onEnd` runs when a key stops being valid (its private
 * streams are closed there).
 * @internal
 */
export class ListenKeys {
  private readonly entries = new Map<string, Entry>();
  private activeKey: string | undefined;

  constructor(
    private readonly timers: Timers,
    private readonly now: () => number,
    private readonly random: () => number,
    private readonly validityMs: number,
    private readonly onEnd: (key: string, why: ListenKeyEnd) => void,
  ) {}

  /** POST: the active key (validity extended) or a new one. */
  create(): string {
    if (this.activeKey !== undefined) {
      this.extend(this.activeKey);
      return this.activeKey;
    }
    const key = randomAlnum(this.random, 60);
    this.entries.set(key, { state: 'active', expiresAt: 0, cancelTimer: () => undefined });
    this.activeKey = key;
    this.extend(key);
    return key;
  }

  /** PUT: resets validity; false when the key is not active. */
  extend(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.state !== 'active') return false;
    entry.cancelTimer();
    entry.expiresAt = this.now() + this.validityMs;
    entry.cancelTimer = this.timers.after(this.validityMs, () => this.end(key, 'expired'));
    return true;
  }

  /** DELETE: invalidates; false when the key is not active. */
  delete(key: string): boolean {
    return this.end(key, 'deleted');
  }

  /** Expires the active key now (fault injection); false when there is none. */
  expireActive(): boolean {
    return this.activeKey !== undefined && this.end(this.activeKey, 'expired');
  }

  isActive(key: string): boolean {
    return this.entries.get(key)?.state === 'active';
  }

  state(key: string): ListenKeyState | undefined {
    return this.entries.get(key)?.state;
  }

  active(): string | undefined {
    return this.activeKey;
  }

  private end(key: string, why: ListenKeyEnd): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.state !== 'active') return false;
    entry.cancelTimer();
    entry.state = why;
    if (this.activeKey === key) this.activeKey = undefined;
    this.onEnd(key, why);
    return true;
  }
}
