import {
  auditTime,
  type BehaviorSubject,
  combineLatest,
  concat,
  defer,
  distinctUntilChanged,
  map,
  type Observable,
  type SchedulerLike,
  skip,
  take,
} from 'rxjs';
import type { ConnectionStatus } from './connectionStatus';

/**
 * The one shape of every `status$` of the library's streams: the connection's state plus the stream's
 * counters, in one flat object. `MarketStatus` is `StreamStatus<MarketCounters>`, `UserStatus` is
 * `StreamStatus<UserCounters>`; a dashboard can show both with one function.
 *
 * Emission rule (both `status$`): the current status at once to each subscriber; then every connection
 * transition at once, and counter changes coalesced: one emission per burst of changes (those made in one
 * synchronous run), none when the counters end where they were. Every emission is a change: a connection state
 * identical to the one shown (the same `type` and `epoch`, the same `attempt` for `connecting` and
 * `reconnecting`, the same `cause` for `closed`) is not shown again, and an emission for counters carries the
 * very `connection` object shown before, so a view of the connection alone compares it by reference.
 * Observing starts nothing; never errors or completes.
 *
 * @example
 * ```ts
 * import { marketStreams, restClient, userStream, type StreamStatus } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * const line = <C extends object>(s: StreamStatus<C>): string => `${s.connection.type} epoch ${s.connection.epoch}`;
 * marketStreams({ url: 'wss://example.invalid/quote/ws/v1' }).status$.subscribe((s) => console.log('market', line(s), s.topics));
 * userStream({ url: 'wss://example.invalid/api/v1/ws', rest }).status$.subscribe((s) => console.log('user', line(s), s.gaps));
 * // market closed epoch 0 0
 * // user closed epoch 0 0
 * ```
 */
export type StreamStatus<C extends object> = { readonly connection: ConnectionStatus } & Readonly<C>;

/**
 * Whether two connection states are the same state: the same `type` and `epoch`, and the same `attempt`
 * (`connecting`, `reconnecting`) or `cause` (`closed`). An `open` of the same epoch is the same socket; a second
 * `reconnecting` of the same attempt is the same wait (its first `delayMs` and `cause` stay shown). @internal
 */
export function sameConnectionState(a: ConnectionStatus, b: ConnectionStatus): boolean {
  if (a.type !== b.type || a.epoch !== b.epoch) return false;
  switch (a.type) {
    case 'connecting':
    case 'reconnecting':
      return a.attempt === (b as typeof a).attempt;
    case 'closed':
      return a.cause === (b as typeof a).cause;
    case 'open':
      return true;
    default: {
      const never: never = a;
      return never;
    }
  }
}

/** Field by field equality of two counter sets. @internal */
function sameCounters<C extends object>(a: C, b: C): boolean {
  for (const key of Object.keys(a) as (keyof C)[]) if (a[key] !== b[key]) return false;
  return Object.keys(a).length === Object.keys(b).length;
}

/**
 * The counters as `status$` shows them: the current set at once, then at most one set per burst of changes
 * (the changes made in one synchronous run, e.g. twelve topics subscribed in a row, are published once, at the
 * end of it on `scheduler`), and only when a field differs from the set published last. @internal
 */
function coalesced<C extends object>(counters: BehaviorSubject<C>, scheduler: SchedulerLike): Observable<C> {
  const later = counters.pipe(skip(1), auditTime(0, scheduler));
  return defer(() => concat(counters.pipe(take(1)), later)).pipe(distinctUntilChanged(sameCounters));
}

/**
 * A `status$` by the rule of {@link StreamStatus}: `connection$` must replay its current status at once and
 * emit each transition (a `Connection`'s `status$` does; a state identical to the last, by
 * {@link sameConnectionState}, is dropped); `counters` holds the current counters, each change a fresh object.
 * @internal
 */
export function streamStatus<C extends object>(
  connection$: Observable<ConnectionStatus>,
  counters: BehaviorSubject<C>,
  scheduler: SchedulerLike,
): Observable<StreamStatus<C>> {
  return combineLatest([connection$.pipe(distinctUntilChanged(sameConnectionState)), coalesced(counters, scheduler)]).pipe(
    map(([connection, c]): StreamStatus<C> => ({ connection, ...c })),
  );
}
