import { Observable, type Subscriber, Subscription } from 'rxjs';
import type { PrivateEvent } from '../../codecs/privateEvents';
import { type CoreItem, isEvent, type UserItem } from './items';

type ItemType = UserItem['type'];

/** One subscriber of one kind of item, with how to unwrap the item for it. */
interface Listener {
  readonly subscriber: Subscriber<unknown>;
  readonly unwrap: (item: CoreItem) => unknown;
  /** An observer: does not connect the source, does not keep it connected, is never errored or completed. */
  readonly passive: boolean;
}

const noListeners: readonly Listener[] = [];
const self = (item: CoreItem): unknown => item;

/**
 * `share()` of the user stream's core with the public streams' `filter` + `map` built in: the core is
 * subscribed while anyone listens to any of the streams (the first subscriber connects, the last one
 * disconnects; after an error or completion the next subscriber connects afresh, as `share()`'s defaults),
 * and each item goes, by one plain loop, only to the subscribers of its kind (events to the event
 * subscribers as themselves, other items unwrapped). No `Subject` (its `next` allocates an iterator per
 * item in RxJS's build) and no per-stream subscriber that drops the items of other kinds. A subscriber
 * added during an emission gets the next item, not the current one, like a `Subject`'s.
 *
 * Passive subscribers (`status$`, `errors$`, `gaps$`) observe without starting anything: they get the items of
 * the connection while one runs, and stay subscribed across connections. When a connection ends they are
 * told with items instead of being ended: a `closed` status (with the cause after an error) and, after an
 * error, the error itself.
 * @internal
 */
export class ItemHub {
  private events: readonly Listener[] = noListeners;
  private readonly byType = new Map<ItemType, readonly Listener[]>();
  /** Every listener, in subscription order (errors and completion reach them in that order). */
  private all: readonly Listener[] = noListeners;
  private connection: Subscription | undefined;
  /** Active (non-passive) subscribers. */
  private active = 0;
  /** Epoch of the last status item of the current connection. */
  private epoch = 0;

  constructor(private readonly source: Observable<CoreItem>) {}

  /** The events, as themselves. */
  events$(): Observable<PrivateEvent> {
    return this.stream<PrivateEvent>(undefined, self);
  }

  /** The items of one type, unwrapped by `value`; `passive`: observe only (see the class). */
  pick<K extends ItemType, A>(type: K, value: (item: Extract<UserItem, { type: K }>) => A, passive = false): Observable<A> {
    return this.stream<A>(type, value as (item: CoreItem) => unknown, passive);
  }

  private stream<A>(type: ItemType | undefined, unwrap: (item: CoreItem) => unknown, passive = false): Observable<A> {
    return new Observable<A>((subscriber) => {
      const listener: Listener = { subscriber: subscriber as Subscriber<unknown>, unwrap, passive };
      this.add(type, listener);
      if (!passive && this.connection === undefined) this.connect();
      return () => this.remove(type, listener);
    });
  }

  private connect(): void {
    // Registered before subscribing (a subscriber arriving during a synchronous emission of the connect
    // does not connect twice); a closed `Subscription` unsubscribes what is added to it later.
    const connection = new Subscription();
    this.connection = connection;
    connection.add(
      this.source.subscribe({
        next: (item) => this.dispatch(item),
        error: (error: unknown) => {
          for (const l of this.reset(connection)) l.subscriber.error(error);
          this.ended(error);
        },
        complete: () => {
          for (const l of this.reset(connection)) l.subscriber.complete();
          this.ended();
        },
      }),
    );
  }

  private dispatch(item: CoreItem): void {
    if (isEvent(item)) {
      const list = this.events;
      for (let i = 0; i < list.length; i++) list[i]!.subscriber.next(item);
      return;
    }
    if (item.type === 'status') this.epoch = item.status.epoch;
    const list = this.byType.get(item.type);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      const l = list[i]!;
      l.subscriber.next(l.unwrap(item));
    }
  }

  /**
   * Forgets every active listener and `connection` (a new subscriber reconnects); returns those listeners.
   * Passive listeners stay.
   */
  private reset(connection: Subscription): readonly Listener[] {
    const all = this.all;
    if (this.connection === connection) this.connection = undefined;
    const keep = (list: readonly Listener[]): readonly Listener[] => list.filter((l) => l.passive);
    this.all = keep(all);
    this.events = keep(this.events);
    for (const [type, list] of this.byType) this.byType.set(type, keep(list));
    this.active = 0;
    return all.filter((l) => !l.passive);
  }

  /** Tells the passive listeners that the connection ended (after an error: the error, then a closed status). */
  private ended(cause?: unknown): void {
    const epoch = this.epoch;
    this.epoch = 0;
    if (this.all.length === 0) return;
    const error = cause === undefined ? undefined : cause instanceof Error ? cause : new Error(String(cause));
    if (error !== undefined) this.dispatch({ type: 'error', error });
    this.dispatch({ type: 'status', status: error ? { type: 'closed', epoch, cause: error } : { type: 'closed', epoch } });
  }

  private add(type: ItemType | undefined, listener: Listener): void {
    if (!listener.passive) this.active += 1;
    this.all = [...this.all, listener];
    if (type === undefined) this.events = [...this.events, listener];
    else this.byType.set(type, [...(this.byType.get(type) ?? noListeners), listener]);
  }

  private remove(type: ItemType | undefined, listener: Listener): void {
    if (!this.all.includes(listener)) return; // already gone with a reset
    this.all = this.all.filter((l) => l !== listener);
    if (type === undefined) this.events = this.events.filter((l) => l !== listener);
    else this.byType.set(type, (this.byType.get(type) ?? noListeners).filter((l) => l !== listener));
    if (!listener.passive) this.active -= 1;
    if (this.active === 0 && this.connection !== undefined) {
      const connection = this.connection;
      this.connection = undefined;
      connection.unsubscribe();
      this.ended();
    }
  }
}
