/**
 * Before the private path (see `userCore`): the listen keys its key sessions connect with.
 * @internal
 * @module
 */
import {
  asyncScheduler,
  catchError,
  concat,
  defer,
  distinctUntilChanged,
  filter,
  finalize,
  ignoreElements,
  map,
  merge,
  NEVER,
  Observable,
  of,
  race,
  repeat,
  ReplaySubject,
  retry,
  type SchedulerLike,
  share,
  Subject,
  switchMap,
  take,
  tap,
  throwError,
  timer,
} from 'rxjs';
import { ConfigError, RateLimitedError, RequestFailedError, RequestRejectedError } from '../../errors';
import { backoffDelayMs, type ReconnectInfo } from '../../operators/reconnect';
import type { ListenKeyApi, ListenKeyConfig } from '../listenKeyConfig';

/**
 * The lifecycle behind `listenKey`: one running key per `ListenKeyApi` object (a module-level `WeakMap`),
 * shared by every subscription made while it runs, with the HTTP calls still in flight counted so that a
 * new lifecycle's first POST waits for the previous one's DELETE.
 * @internal
 * @module
 */

/** Listen-key validity on the service (SPEC, Limits): 60 minutes. */
const LISTEN_KEY_VALIDITY_MS = 60 * 60 * 1000;

/** Hooks of one subscription to a shared key. @internal */
export interface ListenKeyHooks {
  /** Before each wait to retry a failed creation. */
  readonly onRetrying?: (info: ReconnectInfo) => void;
}

/** One running key lifecycle of a `ListenKeyApi`, shared by every subscription made while it runs. */
interface SharedKey {
  readonly key$: Observable<string>;
  readonly recreate: Subject<void>;
  readonly listeners: Set<{ readonly onError?: ((error: unknown) => void) | undefined; readonly onRetrying?: ((info: ReconnectInfo) => void) | undefined }>;
}

/** Per listen-key api (one REST client, one account): its running lifecycle and its HTTP calls still in flight. */
interface ApiState {
  shared: SharedKey | undefined;
  /** POSTs and DELETEs whose answer has not arrived (a new lifecycle's first POST waits for them). */
  pending: number;
  readonly idle: Subject<void>;
}

const states = new WeakMap<ListenKeyApi, ApiState>();

/** A key that lived this long before a forced recreation counts as healthy: forced recreations back off afresh. */
const HEALTHY_KEY_MS = 60_000;
/** Longest wait of a new lifecycle for the previous one's DELETE or orphaned POST (a hung call). */
const MAX_SETTLE_WAIT_MS = 10_000;

/** `listenKey` with hooks of the subscription (the user stream publishes creation retries as statuses). @internal */
export function sharedListenKey(rest: ListenKeyApi, config: ListenKeyConfig, hooks: ListenKeyHooks = {}): Observable<string> {
  const { keepAliveIntervalMs = 30 * 60 * 1000, retryDelayMs = 1000, maxRetryDelayMs = 60_000, recreate$ = NEVER } = config;
  validate(keepAliveIntervalMs, retryDelayMs, maxRetryDelayMs);
  return defer(() => {
    let state = states.get(rest);
    if (state === undefined) {
      state = { shared: undefined, pending: 0, idle: new Subject<void>() };
      states.set(rest, state);
    }
    const shared = (state.shared ??= startShared(rest, config, state));
    const listener = { onError: config.onError, onRetrying: hooks.onRetrying };
    shared.listeners.add(listener);
    return merge(shared.key$, recreate$.pipe(tap(() => shared.recreate.next()), ignoreElements())).pipe(
      finalize(() => shared.listeners.delete(listener)),
    );
  });
}

/** One lifecycle of a shared key: what its steps (calls, retries, the key's maintenance) share. */
interface KeyLife {
  readonly rest: ListenKeyApi;
  readonly state: ApiState;
  readonly keepAliveIntervalMs: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly random: () => number;
  readonly closeOnUnsubscribe: boolean;
  readonly scheduler: SchedulerLike;
  readonly listeners: SharedKey['listeners'];
  /** The lifecycle ended (its last subscriber left). */
  ended: boolean;
  /** The subscribers at the end: a DELETE's failure after the end is still theirs to hear. */
  lastListeners: readonly Listener[];
}

type Listener = SharedKey['listeners'] extends Set<infer L> ? L : never;

function startShared(rest: ListenKeyApi, config: ListenKeyConfig, state: ApiState): SharedKey {
  const {
    keepAliveIntervalMs = 30 * 60 * 1000,
    retryDelayMs = 1000,
    maxRetryDelayMs = 60_000,
    random = Math.random,
    closeOnUnsubscribe = true,
    scheduler = asyncScheduler,
  } = config;
  const life: KeyLife = {
    rest,
    state,
    keepAliveIntervalMs,
    retryDelayMs,
    maxRetryDelayMs,
    random,
    closeOnUnsubscribe,
    scheduler,
    listeners: new Set(),
    ended: false,
    lastListeners: [],
  };
  const recreate = new Subject<void>();
  const shared: SharedKey = { key$: sharedKey$(life, recreate, () => shared), recreate, listeners: life.listeners };
  return shared;
}

/** Tells the subscribers (those at the end, once it ended) of `error`. */
function report(life: KeyLife, error: unknown): void {
  for (const l of life.ended ? life.lastListeners : [...life.listeners]) {
    try {
      l.onError?.(error);
    } catch {
      // a failing hook must not stop the keepalive
    }
  }
}

/** Tells the subscribers of a wait to retry a failed creation. */
function retrying(life: KeyLife, info: ReconnectInfo): void {
  for (const l of [...life.listeners]) {
    try {
      l.onRetrying?.(info);
    } catch {
      // idem
    }
  }
}

const delayFor = (life: KeyLife, attempt: number): number => backoffDelayMs(attempt, life.retryDelayMs, life.maxRetryDelayMs, 2, life.random);

/** A POST or DELETE answered. */
function settle(state: ApiState): void {
  if (--state.pending === 0) state.idle.next();
}

/** Emits once no POST or DELETE of an earlier lifecycle is in flight (or after `MAX_SETTLE_WAIT_MS`). */
const whenIdle = ({ state, scheduler }: KeyLife): Observable<unknown> =>
  state.pending === 0 ? of(undefined) : race(state.idle.pipe(take(1)), timer(MAX_SETTLE_WAIT_MS, scheduler));

/** DELETE of `key`, counted in flight; a failure goes to the subscribers. */
function closeKey(life: KeyLife, key: string): void {
  life.state.pending += 1;
  defer(() => life.rest.closeListenKey(key))
    .pipe(finalize(() => settle(life.state)))
    .subscribe({ error: (error: unknown) => report(life, error) });
}

/** One POST, not aborted by unsubscription: an answer nobody waits for after the end is deleted. */
function post(life: KeyLife): Observable<string> {
  return new Observable<string>((subscriber) => {
    life.state.pending += 1;
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      settle(life.state);
    };
    defer(() => life.rest.createListenKey())
      .pipe(take(1))
      .subscribe({
        next: (key) => {
          if (!subscriber.closed) subscriber.next(key);
          else if (life.ended && life.closeOnUnsubscribe && typeof key === 'string' && key !== '') closeKey(life, key);
        },
        error: (error: unknown) => {
          done();
          subscriber.error(error);
        },
        complete: () => {
          done();
          subscriber.complete();
        },
      });
  });
}

/** A key created (once no earlier call is in flight), retried with backoff until one comes; a `ConfigError` ends it. */
function create(life: KeyLife): Observable<string> {
  let attempt = 0;
  return defer(() => concat(whenIdle(life).pipe(ignoreElements()), post(life))).pipe(
    retry({
      delay: (error: unknown) => {
        if (error instanceof ConfigError) return throwError(() => error);
        attempt += 1;
        const delayMs = Math.max(rateLimitWaitMs(error, life.maxRetryDelayMs), delayFor(life, attempt));
        report(life, error);
        retrying(life, { attempt, delayMs, cause: error });
        return timer(delayMs, life.scheduler);
      },
    }),
  );
}

/** `key` extended (network failures and rate limits retried); rejected: the key may be dead, the active one is created. */
function extendOrRecreate(life: KeyLife, key: string): Observable<string> {
  return defer(() => life.rest.extendListenKey(key)).pipe(
    retry({
      delay: (error: unknown, count: number) => {
        // A network failure or a rate limit says nothing about the key: extend it again (after the limit's
        // wait); any other answer may mean the key is dead.
        const limitMs = rateLimitWaitMs(error, life.maxRetryDelayMs);
        if (!(error instanceof RequestFailedError) && limitMs === 0) return throwError(() => error);
        report(life, error);
        return timer(Math.max(limitMs, delayFor(life, count)), life.scheduler);
      },
    }),
    ignoreElements(),
    catchError((error: unknown) => {
      if (error instanceof ConfigError) return throwError(() => error);
      report(life, error); // a rejected (or unreadable) extension: the key may be dead, get the active one
      return create(life);
    }),
  );
}

/**
 * The shared key of a lifecycle: created, extended on the keepalive grid, recreated when forced (`recreate`), shared
 * (`share` with a replay of the current key), closed after the last subscriber (`shared()`: the lifecycle's own entry,
 * forgotten then).
 */
function sharedKey$(life: KeyLife, recreate: Subject<void>, shared: () => SharedKey): Observable<string> {
  const { scheduler, keepAliveIntervalMs, state } = life;
  return defer(() => {
    let current: string | undefined;
    let lastKeyAt = scheduler.now();
    let forcedInRow = 0;
    let forcing = false;
    /** A forced recreation: at once after a healthy key, else after a growing delay. */
    const forced = (): Observable<string> =>
      defer(() => {
        if (scheduler.now() - lastKeyAt >= HEALTHY_KEY_MS) forcedInRow = 0;
        forcedInRow += 1;
        const delayMs = forcedInRow === 1 ? 0 : delayFor(life, forcedInRow - 1);
        return delayMs > 0 ? timer(delayMs, scheduler).pipe(switchMap(() => create(life))) : create(life);
      });
    const maintenance$ = merge(
      // `timer` repeated, not `interval`: one action at a time on a virtual scheduler too (lib/internal/scheduleRepeating.ts)
      timer(keepAliveIntervalMs, scheduler).pipe(
        repeat(),
        map(() => false),
      ),
      // Requests while a forced recreation is under way are the same request (several streams saw one key die).
      recreate.pipe(
        filter(() => !forcing),
        map(() => true),
      ),
    ).pipe(
      switchMap((force) => {
        forcing = force;
        return (force ? forced() : current === undefined ? create(life) : extendOrRecreate(life, current)).pipe(
          map((key) => ({ key, force })),
        );
      }),
    );

    return create(life).pipe(
      switchMap((first) => concat(of({ key: first, force: true }), maintenance$)),
      tap(({ key, force }) => {
        current = key;
        if (force) forcing = false;
        lastKeyAt = scheduler.now();
      }),
      // A recreation asked for through `recreate$` is always answered, even with the same key (the caller
      // believes the key is dead and waits); keepalive recreations emit only a changed key.
      distinctUntilChanged((previous, next) => !next.force && previous.key === next.key),
      map(({ key }) => key),
      finalize(() => {
        life.ended = true;
        life.lastListeners = [...life.listeners];
        if (state.shared === shared()) state.shared = undefined;
        if (life.closeOnUnsubscribe && current !== undefined) closeKey(life, current);
      }),
    );
  }).pipe(
    share({
      connector: () => new ReplaySubject<string>(1),
      resetOnError: true,
      resetOnComplete: true,
      resetOnRefCountZero: true,
    }),
  );
}

/**
 * The shortest wait before the next call after `error`: a rate limit's `retryAfterMs`; for a bare 429 / 418
 * (no `Retry-After` read), `longMs`; else 0. (Also the user stream's snapshot retries.)
 * @internal
 */
export function rateLimitWaitMs(error: unknown, longMs: number): number {
  if (error instanceof RateLimitedError) return error.retryAfterMs;
  if (error instanceof RequestRejectedError && (error.status === 429 || error.status === 418)) return longMs;
  return 0;
}

function validate(keepAliveIntervalMs: number, retryDelayMs: number, maxRetryDelayMs: number): void {
  if (!(keepAliveIntervalMs > 0 && keepAliveIntervalMs < LISTEN_KEY_VALIDITY_MS)) {
    throw new ConfigError(
      'keepAliveIntervalMs',
      `must be > 0 and below the ${LISTEN_KEY_VALIDITY_MS} ms listen-key validity`,
    );
  }
  if (!(retryDelayMs > 0 && Number.isFinite(retryDelayMs))) {
    throw new ConfigError('retryDelayMs', 'must be a finite number > 0');
  }
  if (!(maxRetryDelayMs >= retryDelayMs && Number.isFinite(maxRetryDelayMs))) {
    throw new ConfigError('maxRetryDelayMs', 'must be a finite number >= retryDelayMs');
  }
}
