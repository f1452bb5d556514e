/**
 * The private path of a user stream, assembled in one place. One run, top to bottom:
 *
 * ```
 * listen keys ─► 1. keySession      one connection per key (connection core, frames)
 *             ─► 2. frameSink       decode: each element of a frame checked, handed on by a plain call
 *             ─►    guardEvents     the event-time guard (maxEventTimeSkewMs), the frame clock of gaps
 *                   ├► 4. StateFolds (orders, balances), on arrival ─► the outputs (states)
 *                   └► de-duplication ─► 3. reorder buffer  order by `E` (`reorderBuffer`) ─► the outputs (events)
 *                      (both skipped while nobody reads an event stream)
 *             ─► 5. UserOutputs     executionReports$, accountUpdates$, tickets$, orders$, balances$, …
 * ```
 *
 * The folds need no order and no de-duplication: an order's state only moves forward (`compareReports` keeps the
 * furthest report) and a balance is kept by `E` per asset, so folding on arrival gives, at every moment, the fold of
 * what arrived, and in the end the fold in `E` order; a duplicate changes nothing. With a zero hold (`reorder.maxDelayMs: 0`) the buffer has no timer: it is drained
 * at the end of each frame, so an in-order event reaches the event streams in the call that received its frame.
 *
 * Events travel by plain calls along one seam, built here: the run creates the folds, then the reorder
 * buffer writing to the outputs and the folds, then the guard (`guardEvents`) in front of it, and gives the guard to every
 * key session it starts. Everything else (statuses, errors, gaps, snapshots) is an item tagged by `type`,
 * through RxJS operators: keys → sessions (`switchMap`) → `trackSessions` (epochs, gaps) → side items
 * (listen-key errors, events out of range) → `resync` (snapshots) → counters → the folds (`sync`) or, scrubbed
 * of listen keys, the outputs.
 * @internal
 * @module
 */
import { filter, merge, Observable, type SchedulerLike, startWith, Subject, Subscription, switchMap, tap, timer } from 'rxjs';
import type { PrivateEvent } from '../../codecs/privateEvents';
import { DecodeError, EventTimeOutOfRangeError } from '../../errors';
import { backoffDelayMs } from '../../operators/reconnect';
import type { ReorderInput, ReorderOutput } from '../../operators/reorderByEventTime';
import type { ConnectionConfig } from '../../socket/connection';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { WebSocketCtor } from '../../socket/webSocketLike';
import type { ListenKeyApi, ListenKeyConfig } from '../listenKeyConfig';
import type { SessionItem, SyncItem, UserItem } from './items';
import type { FollowedOrder } from './followedOrders';
import { type FrameClock, keySession } from './keySession';
import { resync, type SnapshotApi } from './resync';
import { scrubItem } from './scrubItem';
import { sharedListenKey } from './sharedListenKey';
import { StateFolds } from './stateFolds';
import { trackSessions } from './trackSessions';
import type { CoreSink, UserCore } from './userOutputs';
import type { UserStreamState } from './userStreamState';

/** The status item a start emits (before any key or socket). */
const STARTING: UserItem = { type: 'status', status: { type: 'connecting', epoch: 0, attempt: 0 } };

/** Keys remembered for redaction (the current one and a few before it). */
const REMEMBERED_KEYS = 4;

/** What a run of the core needs: `userStream`'s config, validated and resolved. @internal */
export interface UserCoreSettings {
  /** Stream address without the key (no trailing `/`). */
  readonly base: string;
  /** The keys to use: `listenKey$`, or `undefined` to manage them through `rest`. */
  readonly listenKey$: Observable<string> | undefined;
  readonly rest: ListenKeyApi | undefined;
  readonly listenKeyOptions: Omit<ListenKeyConfig, 'scheduler' | 'recreate$'>;
  /** The REST snapshot calls when `resync` is on. */
  readonly snapshots: SnapshotApi | undefined;
  /** The orders `placeOrder` / `cancelOrder` follow: reconciled after each open with the orders the state knew. */
  readonly followed: () => readonly FollowedOrder[];
  readonly connection: Omit<ConnectionConfig, 'url' | 'scheduler' | 'WebSocketCtor'>;
  readonly suspectKeyAfterFailures: number;
  readonly maxEventTimeSkewMs: number;
  /** The service's clock offset (`rest.serverTimeOffsetMs`), when the api has one. */
  readonly serverOffsetMs: (() => number) | undefined;
  /** How far off that offset can be (`rest.serverTimeOffsetErrorMs`), when the api has it. */
  readonly serverOffsetErrorMs: (() => number) | undefined;
  readonly scheduler: SchedulerLike;
  readonly WebSocketCtor: WebSocketCtor | undefined;
  /** Opens the reorder buffer of a run (order by `E`; it de-duplicates nothing: `openDedupe` does, in front of it). */
  readonly openReorder: (out: ReorderOutput<PrivateEvent>) => ReorderInput<PrivateEvent>;
  /** Opens the de-duplication memory of a run: `false` for an event already seen; `undefined`: none. */
  readonly openDedupe: () => ((event: PrivateEvent, now: number) => boolean) | undefined;
}

/** One run of the core: its sink, and what its steps share while it lives. */
interface Run {
  readonly sink: CoreSink;
  /** The keys seen (the current one and a few before it), for redaction. */
  readonly keys: string[];
  /** 4. The folds, writing new states to the outputs. */
  readonly folds: StateFolds;
  /** 3. The reorder buffer, writing ordered events to the outputs. */
  readonly buffer: ReorderInput<PrivateEvent>;
  /** Items that do not come from a session: listen-key errors and retries, events dropped for their time. */
  readonly sideItems$: Subject<UserItem>;
  /** Where the sessions write the time of the last frame (see `FrameClock`). */
  readonly frameClock: FrameClock;
  /** Forces a new listen key (managed keys only). */
  readonly recreate$: Subject<void>;
  /** The last status written to the outputs. */
  lastStatus: ConnectionStatus | undefined;
}

/**
 * The core of a user stream: each run (while anyone listens, see `UserOutputs`) gets listen keys, connects,
 * and writes ordered events and items to its sink, as the module doc draws; it counts on `state` and publishes its
 * states there while it runs. @internal
 */
export function userCore(s: UserCoreSettings, state: UserStreamState): UserCore {
  return (sink: CoreSink) => {
    const keys: string[] = [];
    const scrubFatal = (error: unknown): unknown => scrubError(error, keys);
    // 4. The folds, writing new states to the outputs: fed on arrival (their result does not depend on the order).
    const folds = new StateFolds((item) => sink.item(item), () => sink.listening('orders'));
    // 3. The reorder buffer: each ordered event to the outputs.
    const buffer = s.openReorder({
      get closed() {
        return sink.closed;
      },
      next: (event) => sink.event(event),
      error: (error: unknown) => sink.error(scrubFatal(error)),
      complete: () => sink.complete(),
    });
    const run: Run = { sink, keys, folds, buffer, sideItems$: new Subject<UserItem>(), frameClock: { lastFrameAt: undefined }, recreate$: new Subject<void>(), lastStatus: undefined };
    // 1. One key session per key, each handing its decoded events to the guard (2. decode: `frameSink`).
    const sessions$ = keySessions(s, state, run, runKeys(s, state, run), guardEvents(s, state, run));
    const items$ = runItems(s, state, run, sessions$);
    state.states = folds;
    const subscription = new Subscription(() => {
      buffer.dispose();
      state.states = undefined;
      run.recreate$.complete();
      run.sideItems$.complete();
    });
    subscription.add(
      items$.subscribe({
        next: (item) => {
          if (item.type === 'sync' || item.type === 'unsync' || item.type === 'reconcile' || item.type === 'restOrders') return folds.merge(item);
          const scrubbed = scrubItem(item, keys);
          if (scrubbed.type === 'status') run.lastStatus = scrubbed.status;
          sink.item(scrubbed);
        },
        error: (error: unknown) => sink.error(scrubFatal(error)),
        // Completion flushes the buffer first.
        complete: () => buffer.complete(),
      }),
    );
    return subscription;
  };
}

/** A fatal error, scrubbed as an error item would be (it reaches every stream, events included). */
function scrubError(error: unknown, keys: readonly string[]): unknown {
  if (!(error instanceof Error)) return error;
  const item = scrubItem({ type: 'error', error }, keys);
  return item.type === 'error' ? item.error : error;
}

/** How far off the service's clock offset can be, ms (0 when the api does not say). */
const offsetErrorOf = (s: UserCoreSettings): number => (s.serverOffsetErrorMs === undefined ? 0 : s.serverOffsetErrorMs());

/**
 * The seam of the decoded events, given to every key session: the event-time guard (`maxEventTimeSkewMs`), the
 * frame clock of gaps, then the folds (on arrival) and, when anyone reads the event streams, the de-duplication and
 * the reorder buffer.
 */
function guardEvents(s: UserCoreSettings, state: UserStreamState, run: Run): (event: PrivateEvent, now: number) => void {
  const { maxEventTimeSkewMs, serverOffsetMs } = s;
  const { sink, folds, buffer, sideItems$, frameClock } = run;
  const isNew = s.openDedupe();
  return (event: PrivateEvent, now: number): void => {
    const offset = serverOffsetMs === undefined ? 0 : serverOffsetMs();
    // An event without a time (an other event whose element has no integer `E`) is not guarded (NaN compares
    // false): folded nowhere, and passed on at once by the reorder buffer.
    const time = event.E ?? NaN;
    const skew = time - (now + offset);
    if (skew > maxEventTimeSkewMs || -skew > maxEventTimeSkewMs) {
      state.count((c) => ({ outOfRangeEvents: c.outOfRangeEvents + 1 }));
      sideItems$.next({ type: 'error', error: new EventTimeOutOfRangeError(event.e, time, now + offset, maxEventTimeSkewMs) });
      return;
    }
    // The frame was written when its events were stamped (see FrameClock): a late read does not move the gap. On
    // the local clock at the earliest that `E` can stand for (minus the largest offset the estimate allows).
    if (frameClock.lastFrameAt !== undefined) {
      const writtenAt = time - (offset + offsetErrorOf(s));
      if (writtenAt < frameClock.lastFrameAt) frameClock.lastFrameAt = writtenAt;
    }
    // The folds take each event as it arrives (no hold, no timer before a state). A duplicate changes nothing
    // there (an order's state and a balance only move forward), so the de-duplication is the event streams'.
    folds.event(event);
    // Nobody reads the event streams: nothing to remember or order (a subscriber who comes gets the events from then on).
    if (!sink.listening('events') || (isNew !== undefined && !isNew(event, now))) return;
    buffer.next(event, now);
  };
}

/** The listen keys of a run: `listenKey$`, or the shared managed key of `rest` (its errors and retries as side items). */
function runKeys(s: UserCoreSettings, state: UserStreamState, run: Run): Observable<string> {
  if (s.listenKey$ !== undefined) return s.listenKey$;
  const { sideItems$ } = run;
  const onError = (error: unknown): void => {
    state.count((c) => ({ keyErrors: c.keyErrors + 1 }));
    s.listenKeyOptions.onError?.(error);
    sideItems$.next({ type: 'error', error: error instanceof Error ? error : new Error(String(error)) });
  };
  // A listen-key creation that failed shows on status$ as a reconnection (with its cause) until a key comes.
  const onRetrying = ({ attempt, delayMs, cause }: { attempt: number; delayMs: number; cause: unknown }): void =>
    sideItems$.next({
      type: 'status',
      status: { type: 'reconnecting', epoch: run.lastStatus?.epoch ?? 0, attempt, delayMs, cause: cause instanceof Error ? cause : new Error(String(cause)) },
    });
  return sharedListenKey(s.rest!, { ...s.listenKeyOptions, scheduler: s.scheduler, recreate$: run.recreate$, onError }, { onRetrying });
}

/**
 * The items of a run: the sessions' (epochs, gaps) and the side items, then (with `resync`) the REST snapshots after
 * each open, counted on `state`.
 */
function runItems(s: UserCoreSettings, state: UserStreamState, run: Run, sessions$: Observable<SessionItem>): Observable<UserItem | SyncItem> {
  const { scheduler, serverOffsetMs, listenKeyOptions } = s;
  return sessions$.pipe(
    trackSessions(scheduler, run.frameClock),
    // Side items first: a creation failing at once is not lost. A start shows as `connecting` at once, also
    // while the first key is being created (the connection's own first `connecting` then adds nothing).
    (sessionItems$) => merge(run.sideItems$, sessionItems$).pipe(startWith(STARTING)),
    // After each open: REST snapshots of the orders and the account, merged by the folds.
    (userItems$) =>
      s.snapshots === undefined
        ? userItems$
        : userItems$.pipe(
            resync({
              api: s.snapshots,
              latest: run.folds,
              followed: s.followed,
              serverNow: () => scheduler.now() + (serverOffsetMs === undefined ? 0 : serverOffsetMs()) - offsetErrorOf(s),
              scheduler,
              retryDelayMs: listenKeyOptions.retryDelayMs ?? 1000,
              maxRetryDelayMs: listenKeyOptions.maxRetryDelayMs ?? 60_000,
              random: listenKeyOptions.random ?? Math.random,
            }),
          ),
    // The counters of the items (events are counted where they are dropped).
    tap((item) => {
      if (item.type === 'gap') state.count((c) => ({ gaps: c.gaps + 1 }));
      else if (item.type === 'error' && item.error instanceof DecodeError) state.count((c) => ({ decodeErrors: c.decodeErrors + 1 }));
      else if (item.type === 'sync') state.count(() => ({ authoritative: true, syncedEpoch: item.epoch }));
      else if (item.type === 'unsync') state.count(() => ({ authoritative: false }));
    }),
  );
}

/**
 * The key sessions of one run: a new key moves the socket to its path (`switchMap`); a key the service
 * recreated as the same key after closing it as not valid (4001) is reconnected after a growing delay (the
 * connection's own reconnect backoff), so a service that keeps closing it is not hammered. Remembers the
 * keys in `run.keys` (for redaction) and counts the key changes. Each session hands its decoded events to `onEvent`.
 */
function keySessions(
  s: UserCoreSettings,
  state: UserStreamState,
  run: Run,
  keys$: Observable<string>,
  onEvent: (event: PrivateEvent, now: number) => void,
): Observable<SessionItem> {
  const { scheduler } = s;
  const { keys, buffer, frameClock } = run;
  const { minDelayMs = 500, maxDelayMs = 30_000, factor = 2, random = Math.random } = s.connection.reconnect || {};
  const onFrameEnd = (): void => buffer.drain();
  let currentKey: string | undefined;
  let currentDead = false;
  let sameKeyRetries = 0;
  let keyChanged = false;
  const onKeySuspect = (dead: boolean): void => {
    currentDead ||= dead;
    run.recreate$.next();
  };
  return keys$.pipe(
    filter((key) => key !== currentKey || currentDead),
    tap((key) => {
      sameKeyRetries = key === currentKey ? sameKeyRetries + 1 : 0;
      keyChanged = currentKey !== undefined && key !== currentKey;
      if (keyChanged) state.count((c) => ({ keyChanges: c.keyChanges + 1 }));
      currentKey = key;
      currentDead = false;
      if (!keys.includes(key)) keys.push(key);
      if (keys.length > REMEMBERED_KEYS) keys.shift();
    }),
    switchMap((key) => {
      const session$ = keySession({
        url: `${s.base}/${key}`,
        connection: { ...s.connection, url: '', scheduler, WebSocketCtor: s.WebSocketCtor },
        suspectAfterFailures: s.suspectKeyAfterFailures,
        onKeySuspect,
        onEvent,
        onFrameEnd,
        frameClock,
      });
      const delayMs = sameKeyRetries === 0 ? 0 : backoffDelayMs(sameKeyRetries, minDelayMs, maxDelayMs, factor, random);
      return (delayMs > 0 ? timer(delayMs, scheduler).pipe(switchMap(() => session$)) : session$).pipe(
        startWith({ type: 'start', keyChanged } as const),
      );
    }),
  );
}
