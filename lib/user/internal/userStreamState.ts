/**
 * The one status/counters object of a user stream: made by `userStream`, handed down to its core, updated where each
 * thing happens (a gap, a key change, an event dropped), read by `status$` and by the streams that show the state of
 * the run under way (`orders$`, `balances$`, `placeOrder`).
 * @internal
 * @module
 */
import { BehaviorSubject } from 'rxjs';
import type { UserCounters } from '../userStatus';
import type { StateFolds } from './stateFolds';

/** See the module. @internal */
export class UserStreamState {
  /** The counters `status$` shows, since the stream was made. */
  readonly counters = new BehaviorSubject<UserCounters>({
    gaps: 0,
    keyChanges: 0,
    keyErrors: 0,
    decodeErrors: 0,
    outOfRangeEvents: 0,
    lateEvents: 0,
    authoritative: false,
  });
  /** The states of the run under way (late subscribers of `orders$` / `balances$` get them first); `undefined` between runs. */
  states: StateFolds | undefined;

  /** Counts something on `status$`: `change` gives the fields that change from the current counters. */
  count(change: (c: UserCounters) => Partial<UserCounters>): void {
    this.counters.next({ ...this.counters.value, ...change(this.counters.value) });
  }
}
