/**
 * Step 5, the last, of the private path (see `userCore`): the per-kind outputs of a user stream. The core
 * hands each ordered event and each item to a {@link CoreSink}; this hub is that sink's owner and hands them,
 * by one plain loop, to the subscribers of their kind only.
 * @internal
 * @module
 */
import { Observable, type Subscriber, Subscription } from 'rxjs';
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { UserItem } from './items';

/**
 * Where one run of the core writes: ordered events and tagged items on two named channels (an event is never
 * wrapped in an item), then at most one `error` or `complete`. @internal
 */
export interface CoreSink {
  /** `true` once the run was unsubscribed, errored or completed: nothing more is taken. */
  readonly closed: boolean;
  event(event: PrivateEvent): void;
  item(item: UserItem): void;
  error(error: unknown): void;
  complete(): void;
}

/** One run of the core: starts writing to `sink`; unsubscribing the result stops it. @internal */
export type UserCore = (sink: CoreSink) => Subscription;

type ItemType = UserItem['type'];
type EventKind = PrivateEvent['e'];

/** One subscriber of one channel, with how to unwrap an item for it. */
interface Listener {
  readonly subscriber: Subscriber<unknown>;
  readonly unwrap: (item: UserItem) => unknown;
  /** An observer: does not start the core, does not keep it running, is never errored or completed. */
  readonly passive: boolean;
}

const noListeners: readonly Listener[] = [];
const self = (item: UserItem): unknown => item;

/**
 * `share()` of the user stream's core with the public streams' `filter` + `map` built in: the core runs
 * while anyone listens to any of the streams (the first subscriber starts it, the last one stops it; after an
 * error or completion the next subscriber starts it afresh, as `share()`'s defaults). Each event goes to the
 * subscribers of every event and to those of its kind (`e`); each item to those of its `type`, unwrapped. A
 * subscriber added during an emission gets the next value, not the current one, like a `Subject`'s.
 *
 * Passive subscribers (`status$`, `errors$`, `gaps$`) observe without starting anything: they get the items of
 * the run under way, and stay subscribed across runs. When a run ends they are told with items instead of
 * being ended: after an error the error itself, then a `closed` status (with the cause after an error).
 *
 * @example
 * ```ts no-check
 * const outputs = new UserOutputs((sink) => { sink.item({ type: 'gap', gap }); return new Subscription(); });
 * outputs.pick('gap', (i) => i.gap).subscribe(console.log); // the gap
 * ```
 * @internal
 */
export class UserOutputs {
  private readonly byKind = new Map<EventKind | undefined, readonly Listener[]>();
  private readonly byType = new Map<ItemType, readonly Listener[]>();
  /** Every listener, in subscription order (errors and completion reach them in that order). */
  private all: readonly Listener[] = noListeners;
  private run: Subscription | undefined;
  /** Active (non-passive) subscribers. */
  private active = 0;
  /** Epoch of the last status item of the current run. */
  private epoch = 0;

  constructor(private readonly core: UserCore) {}

  /** The events of one kind (`e`), or every event, as themselves. */
  events$<K extends EventKind>(kind?: K): Observable<Extract<PrivateEvent, { e: K }>> {
    return this.stream(this.byKind, kind, self, false);
  }

  /** The items of one type, unwrapped by `value`; `passive`: observe only (see the class). */
  pick<K extends ItemType, A>(type: K, value: (item: Extract<UserItem, { type: K }>) => A, passive = false): Observable<A> {
    return this.stream(this.byType, type, value as (item: UserItem) => unknown, passive);
  }

  /** Whether anyone listens to the items of `type` now (the folds skip the work nobody reads). */
  listening(type: ItemType): boolean {
    return (this.byType.get(type)?.length ?? 0) > 0;
  }

  private stream<K, A>(lists: Map<K, readonly Listener[]>, key: K, unwrap: (item: UserItem) => unknown, passive: boolean): Observable<A> {
    return new Observable<A>((subscriber) => {
      const listener: Listener = { subscriber: subscriber as Subscriber<unknown>, unwrap, passive };
      this.all = [...this.all, listener];
      lists.set(key, [...(lists.get(key) ?? noListeners), listener]);
      if (!passive) {
        this.active += 1;
        if (this.run === undefined) this.start();
      }
      return () => this.remove(lists, key, listener);
    });
  }

  private start(): void {
    // Registered before starting (a subscriber arriving during a synchronous emission of the start does not
    // start twice); a closed `Subscription` unsubscribes what is added to it later.
    const run = new Subscription();
    this.run = run;
    let ended = false;
    const end = (): readonly Listener[] => {
      ended = true;
      return this.reset(run);
    };
    const sink: CoreSink = {
      get closed() {
        return ended || run.closed;
      },
      event: (event) => {
        if (ended) return;
        const every = this.byKind.get(undefined);
        if (every !== undefined) for (let i = 0; i < every.length; i++) every[i]!.subscriber.next(event);
        const kind = this.byKind.get(event.e);
        if (kind !== undefined) for (let i = 0; i < kind.length; i++) kind[i]!.subscriber.next(event);
      },
      item: (item) => {
        if (!ended) this.dispatch(item);
      },
      error: (error) => {
        if (ended) return;
        for (const l of end()) l.subscriber.error(error);
        this.ended(error);
        run.unsubscribe();
      },
      complete: () => {
        if (ended) return;
        for (const l of end()) l.subscriber.complete();
        this.ended();
        run.unsubscribe();
      },
    };
    run.add(this.core(sink));
  }

  private dispatch(item: UserItem): void {
    if (item.type === 'status') this.epoch = item.status.epoch;
    const list = this.byType.get(item.type);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      const l = list[i]!;
      l.subscriber.next(l.unwrap(item));
    }
  }

  /** Forgets every active listener and `run` (a new subscriber starts a new run); returns those listeners. */
  private reset(run: Subscription): readonly Listener[] {
    const all = this.all;
    if (this.run === run) this.run = undefined;
    const keep = (list: readonly Listener[]): readonly Listener[] => list.filter((l) => l.passive);
    this.all = keep(all);
    for (const lists of [this.byKind, this.byType] as Map<unknown, readonly Listener[]>[]) {
      for (const [key, list] of lists) lists.set(key, keep(list));
    }
    this.active = 0;
    return all.filter((l) => !l.passive);
  }

  /** Tells the passive listeners that the run ended (after an error: the error, then a closed status). */
  private ended(cause?: unknown): void {
    const epoch = this.epoch;
    this.epoch = 0;
    if (this.all.length === 0) return;
    const error = cause === undefined ? undefined : cause instanceof Error ? cause : new Error(String(cause));
    if (error !== undefined) this.dispatch({ type: 'error', error });
    this.dispatch({ type: 'status', status: error ? { type: 'closed', epoch, cause: error } : { type: 'closed', epoch } });
  }

  private remove<K>(lists: Map<K, readonly Listener[]>, key: K, listener: Listener): void {
    if (!this.all.includes(listener)) return; // already gone with a reset
    this.all = this.all.filter((l) => l !== listener);
    lists.set(key, (lists.get(key) ?? noListeners).filter((l) => l !== listener));
    if (!listener.passive) this.active -= 1;
    if (this.active === 0 && this.run !== undefined) {
      const run = this.run;
      this.run = undefined;
      run.unsubscribe();
      this.ended();
    }
  }
}
