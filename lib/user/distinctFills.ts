import { defer, filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { TicketInfo } from '../codecs/ticketInfo';

/**
 * Options of {@link distinctFills}.
 *
 * @example
 * ```ts
 * import type { TicketInfo } from 'ex-streams';
 * import { distinctFills, type DistinctFillsConfig } from 'ex-streams/folds';
 * import type { Observable } from 'rxjs';
 *
 * declare const tickets$: Observable<TicketInfo>;
 * const config: DistinctFillsConfig = { maxRemembered: 50_000 };
 * tickets$.pipe(distinctFills(config)).subscribe((t) => console.log(t.T, t.q, t.p));
 * ```
 */
export interface DistinctFillsConfig {
  /** How many recent ticket ids are remembered to recognise duplicates. Default 10 000. */
  readonly maxRemembered?: number;
}

/**
 * Passes each trade ticket (`ticketInfo`) once, dropping repeats of a ticket id (`T`) already seen.
 *
 * Memory is bounded: the most recent `maxRemembered` ticket ids are kept (oldest forgotten first).
 *
 * ```
 * tickets: --a--b--a--c--b--|
 * fills:   --a--b-----c-----|
 * ```
 *
 * @example
 * ```ts
 * import { userStream } from 'ex-streams';
 * import type { ListenKeyApi } from 'ex-streams/connection';
 * import { distinctFills } from 'ex-streams/folds';
 * declare const url: string, rest: ListenKeyApi;
 * userStream({ url, rest }).tickets$.pipe(distinctFills())
 *   .subscribe((t) => console.log(t.T, t.q, t.p)); // '8800001 0.5 30000.1'
 * ```
 */
export function distinctFills(config: DistinctFillsConfig = {}): MonoTypeOperatorFunction<TicketInfo> {
  const { maxRemembered = 10_000 } = config;
  return (source) =>
    defer(() => {
      const seen = new Set<string>();
      return source.pipe(
        filter((ticket) => {
          if (seen.has(ticket.T)) return false;
          seen.add(ticket.T);
          if (seen.size > maxRemembered) seen.delete(seen.values().next().value as string);
          return true;
        }),
      );
    });
}
