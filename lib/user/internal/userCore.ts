/**
 * The private path of a user stream, assembled in one place. One run, top to bottom:
 *
 * ```
 * listen keys ─► 1. keySession      one connection per key (connection core, frames)
 *             ─► 2. frameSink       decode: each element of a frame checked, handed on by a plain call
 *             ─►    toBuffer        the event-time guard (maxEventTimeSkewMs), the frame clock of gaps
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
 * buffer writing to the outputs and the folds, then `toBuffer` in front of it, and gives `toBuffer` to every
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
import type { UserCounters } from '../userStatus';
import type { SessionItem, UserItem } from './items';
import type { FollowedOrder } from './followedOrders';
import { type FrameClock, keySession } from './keySession';
import { resync, type SnapshotApi } from './resync';
import { scrubItem } from './scrubItem';
import { sharedListenKey } from './sharedListenKey';
import { StateFolds } from './stateFolds';
import { trackSessions } from './trackSessions';
import type { CoreSink, UserCore } from './userOutputs';

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
  /** Counts something on `status$`. */
  readonly count: (change: (c: UserCounters) => Partial<UserCounters>) => void;
  /** Whether anyone reads `orders` items now (see `StateFolds`). */
  readonly watchingOrders: () => boolean;
  /** Whether anyone reads the event streams now (`events$`, `executionReports$`, …): else the buffer is skipped. */
  readonly watchingEvents: () => boolean;
  /** Called with the states of a run when it starts, `undefined` when it ends (late subscribers read them). */
  readonly onRun: (states: StateFolds | undefined) => void;
}

/**
 * The core of a user stream: each run (while anyone listens, see `UserOutputs`) gets listen keys, connects,
 * and writes ordered events and items to its sink, as the module doc draws. @internal
 */
export function userCore(s: UserCoreSettings): UserCore {
  const { scheduler, count, maxEventTimeSkewMs, serverOffsetMs, serverOffsetErrorMs } = s;
  const offsetError = (): number => (serverOffsetErrorMs === undefined ? 0 : serverOffsetErrorMs());
  return (sink: CoreSink) => {
    const keys: string[] = [];
    const scrub = (item: UserItem): UserItem => scrubItem(item, keys);
    // A fatal error is scrubbed as an error item would be (it reaches every stream, events included).
    const scrubFatal = (error: unknown): unknown => {
      if (!(error instanceof Error)) return error;
      const item = scrub({ type: 'error', error });
      return item.type === 'error' ? item.error : error;
    };

    // 4. The folds, writing new states to the outputs: fed on arrival (their result does not depend on the order).
    const folds = new StateFolds((item) => sink.item(item), s.watchingOrders);
    const isNew = s.openDedupe();
    // 3. The reorder buffer: each ordered event to the outputs.
    const buffer = s.openReorder({
      get closed() {
        return sink.closed;
      },
      next: (event) => sink.event(event),
      error: (error: unknown) => sink.error(scrubFatal(error)),
      complete: () => sink.complete(),
    });
    // Items that do not come from a session: listen-key errors and retries, events dropped for their time.
    const sideItems$ = new Subject<UserItem>();
    // The seam of the decoded events: the guard in front of the buffer, given to every key session.
    const frameClock: FrameClock = { lastFrameAt: undefined };
    const toBuffer = (event: PrivateEvent, now: number): void => {
      const offset = serverOffsetMs === undefined ? 0 : serverOffsetMs();
      // An event without a time (an other event whose element has no integer `E`) is not guarded (NaN compares
      // false): folded nowhere, and passed on at once by the reorder buffer.
      const time = event.E ?? NaN;
      const skew = time - (now + offset);
      if (skew > maxEventTimeSkewMs || -skew > maxEventTimeSkewMs) {
        count((c) => ({ outOfRangeEvents: c.outOfRangeEvents + 1 }));
        sideItems$.next({ type: 'error', error: new EventTimeOutOfRangeError(event.e, time, now + offset, maxEventTimeSkewMs) });
        return;
      }
      // The frame was written when its events were stamped (see FrameClock): a late read does not move the gap. On
      // the local clock at the earliest that `E` can stand for (minus the largest offset the estimate allows).
      if (frameClock.lastFrameAt !== undefined) {
        const writtenAt = time - (offset + offsetError());
        if (writtenAt < frameClock.lastFrameAt) frameClock.lastFrameAt = writtenAt;
      }
      // The folds take each event as it arrives (no hold, no timer before a state). A duplicate changes nothing
      // there (an order's state and a balance only move forward), so the de-duplication is the event streams'.
      folds.event(event);
      // Nobody reads the event streams: nothing to remember or order (a subscriber who comes gets the events from then on).
      if (!s.watchingEvents() || (isNew !== undefined && !isNew(event, now))) return;
      buffer.next(event, now);
    };

    let lastStatus: ConnectionStatus | undefined;
    const recreate$ = new Subject<void>();
    const onError = (error: unknown): void => {
      count((c) => ({ keyErrors: c.keyErrors + 1 }));
      s.listenKeyOptions.onError?.(error);
      sideItems$.next({ type: 'error', error: error instanceof Error ? error : new Error(String(error)) });
    };
    // A listen-key creation that failed shows on status$ as a reconnection (with its cause) until a key comes.
    const onRetrying = ({ attempt, delayMs, cause }: { attempt: number; delayMs: number; cause: unknown }): void =>
      sideItems$.next({
        type: 'status',
        status: { type: 'reconnecting', epoch: lastStatus?.epoch ?? 0, attempt, delayMs, cause: cause instanceof Error ? cause : new Error(String(cause)) },
      });
    const keys$ = s.listenKey$ ?? sharedListenKey(s.rest!, { ...s.listenKeyOptions, scheduler, recreate$, onError }, { onRetrying });

    // 1. One key session per key, each handing its decoded events to `toBuffer` (2. decode: `frameSink`).
    const sessions$ = keySessions(s, keys$, keys, toBuffer, () => buffer.drain(), frameClock, () => recreate$.next());
    const items$ = sessions$.pipe(
      trackSessions(scheduler, frameClock),
      // Side items first: a creation failing at once is not lost. A start shows as `connecting` at once, also
      // while the first key is being created (the connection's own first `connecting` then adds nothing).
      (sessionItems$) => merge(sideItems$, sessionItems$).pipe(startWith(STARTING)),
      // After each open: REST snapshots of the orders and the account, merged by the folds.
      (userItems$) =>
        s.snapshots === undefined
          ? userItems$
          : userItems$.pipe(
              resync({
                api: s.snapshots,
                latest: folds,
                followed: s.followed,
                serverNow: () => scheduler.now() + (serverOffsetMs === undefined ? 0 : serverOffsetMs()) - offsetError(),
                scheduler,
                retryDelayMs: s.listenKeyOptions.retryDelayMs ?? 1000,
                maxRetryDelayMs: s.listenKeyOptions.maxRetryDelayMs ?? 60_000,
                random: s.listenKeyOptions.random ?? Math.random,
              }),
            ),
      // The counters of the items (events are counted where they are dropped).
      tap((item) => {
        if (item.type === 'gap') count((c) => ({ gaps: c.gaps + 1 }));
        else if (item.type === 'error' && item.error instanceof DecodeError) count((c) => ({ decodeErrors: c.decodeErrors + 1 }));
        else if (item.type === 'sync') count(() => ({ authoritative: true, syncedEpoch: item.epoch }));
        else if (item.type === 'unsync') count(() => ({ authoritative: false }));
      }),
    );

    s.onRun(folds);
    const run = new Subscription(() => {
      buffer.dispose();
      s.onRun(undefined);
      recreate$.complete();
      sideItems$.complete();
    });
    run.add(
      items$.subscribe({
        next: (item) => {
          if (item.type === 'sync' || item.type === 'unsync' || item.type === 'reconcile' || item.type === 'restOrders') return folds.merge(item);
          const scrubbed = scrub(item);
          if (scrubbed.type === 'status') lastStatus = scrubbed.status;
          sink.item(scrubbed);
        },
        error: (error: unknown) => sink.error(scrubFatal(error)),
        // Completion flushes the buffer first.
        complete: () => buffer.complete(),
      }),
    );
    return run;
  };
}

/**
 * The key sessions of one run: a new key moves the socket to its path (`switchMap`); a key the service
 * recreated as the same key after closing it as not valid (4001) is reconnected after a growing delay (the
 * connection's own reconnect backoff), so a service that keeps closing it is not hammered. Remembers the
 * keys in `keys` (for redaction) and counts the key changes.
 */
function keySessions(
  s: UserCoreSettings,
  keys$: Observable<string>,
  keys: string[],
  onEvent: (event: PrivateEvent, now: number) => void,
  onFrameEnd: () => void,
  frameClock: FrameClock,
  recreate: () => void,
): Observable<SessionItem> {
  const { scheduler, count } = s;
  const { minDelayMs = 500, maxDelayMs = 30_000, factor = 2, random = Math.random } = s.connection.reconnect || {};
  let currentKey: string | undefined;
  let currentDead = false;
  let sameKeyRetries = 0;
  let keyChanged = false;
  const onKeySuspect = (dead: boolean): void => {
    currentDead ||= dead;
    recreate();
  };
  return keys$.pipe(
    filter((key) => key !== currentKey || currentDead),
    tap((key) => {
      sameKeyRetries = key === currentKey ? sameKeyRetries + 1 : 0;
      keyChanged = currentKey !== undefined && key !== currentKey;
      if (keyChanged) count((c) => ({ keyChanges: c.keyChanges + 1 }));
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
