import type { RedisRelayError } from '../redisRelayError';

/**
 * Relay errors once per episode (docs/scaling.md, "What a consumer sees"): while Redis is down, every retry of every
 * loop fails alike (a 3 s restart put the client's own "Stream isn't writeable and enableOfflineQueue options is
 * false" on a consumer's `errors$` seven times). An episode runs from a failure to the next success (`recovered`):
 * within it, a reason already said (whatever the operation) is not said again. Reasons are the plain ones of
 * `relayError` (every kind of missing connection reads the same), so a restart is one error, not one per retry.
 *
 * @internal
 * @module
 */

/** See the module. @internal */
export class ErrorEpisodes {
  /** Reasons said since the last success. */
  private readonly said = new Set<string>();

  constructor(private readonly emit: (error: RedisRelayError) => void) {}

  /** Says `error` unless its reason (or `key`: one name for several reasons) was said in this episode. */
  report(error: RedisRelayError, key: string = error.reason): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.emit(error);
  }

  /** Something worked again: the episode is over (the next failure is said again). Cheap: it runs on every read. */
  recovered(): void {
    if (this.said.size > 0) this.said.clear();
  }
}
