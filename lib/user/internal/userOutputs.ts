/**
 * Step 5, the last, of the private path (see `userCore`): the per-kind outputs of a user stream. One run of the
 * core is shared (`share()`) by every output; each output keeps the values of its kind (`filter`) and unwraps
 * items (`map`).
 * @internal
 * @module
 */
import { filter, map, Observable, Subject, type Subscription } from 'rxjs';
import { lightShare } from '../../internal/lightShare';
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
  /** Whether anyone reads the `orders` items now, or the event streams (the folds and the buffer skip the work nobody reads). */
  listening(type: 'orders' | 'events'): boolean;
}

/** One run of the core: starts writing to `sink`; unsubscribing the result stops it. @internal */
export type UserCore = (sink: CoreSink) => Subscription;

type ItemType = UserItem['type'];
type EventKind = PrivateEvent['e'];
/** What a run emits: events (told by their `e`; an item has none) and items. */
type CoreValue = PrivateEvent | UserItem;

const isEvent = (value: CoreValue): value is PrivateEvent => 'e' in value;

/**
 * The outputs of a user stream: `share()` of the core (`lightShare()`: `share()` with a subject that allocates
 * nothing per value; the first subscriber starts a run, the last one stops it; after an error or completion the
 * next subscriber starts it afresh), each output a `filter` (+ `map`) of it.
 *
 * Passive outputs (`status$`, `errors$`, `gaps$`) observe without starting anything: they get the items of the
 * run under way, and stay subscribed across runs. When a run ends they are told with items instead of being
 * ended: after an error the error itself, then a `closed` status (with the cause after an error).
 *
 * A hand-written multicast (per-kind listener lists, no `filter`) stood here; measured A/B through the public
 * API (`spec/bench/publicApi.ts --case=executionReports`, 12 alternating runs each) it saved nothing measurable:
 * library time per frame, median 5 189 ns with it against 5 184 ns with `share()` + `filter` (per-run pairs: median
 * 1 % slower, noise ±3 %), far under the 5 % a stand-in must pay (issue 15), so the primitives are back.
 *
 * @example
 * ```ts no-check
 * const outputs = new UserOutputs((sink) => { sink.item({ type: 'gap', gap }); return new Subscription(); });
 * outputs.pick('gap', (i) => i.gap).subscribe(console.log); // the gap
 * ```
 * @internal
 */
export class UserOutputs {
  /** The items of the runs, for the passive outputs. */
  private readonly observed$ = new Subject<UserItem>();
  private readonly run$: Observable<CoreValue>;
  /** The item types passive outputs were made for. */
  private readonly passiveTypes = new Set<ItemType>();
  /** Subscribers of the outputs of each item type. */
  private readonly watchers = new Map<ItemType | 'events', number>();

  constructor(core: UserCore) {
    this.run$ = new Observable<CoreValue>((subscriber) => {
      let epoch = 0;
      let cause: unknown;
      const run = core({
        get closed() {
          return subscriber.closed;
        },
        event: (event) => subscriber.next(event),
        item: (item) => {
          if (subscriber.closed) return;
          if (item.type === 'status') epoch = item.status.epoch;
          // Only the types a passive output reads (`Subject#next` allocates an iterator per value, and `status$`
          // always observes: the orders and balances states would each pay it for nothing).
          if (this.passiveTypes.has(item.type)) this.observed$.next(item);
          subscriber.next(item);
        },
        error: (error) => {
          if (subscriber.closed) return;
          cause = error;
          subscriber.error(error);
        },
        complete: () => subscriber.complete(),
        listening: (type) => this.listening(type),
      });
      return () => {
        run.unsubscribe();
        this.ended(epoch, cause);
      };
    }).pipe(lightShare());
  }

  /** The events of one kind (`e`), or every event, as themselves. */
  events$<K extends EventKind>(kind?: K): Observable<Extract<PrivateEvent, { e: K }>> {
    return this.counted(
      'events',
      this.run$.pipe(filter((v): v is Extract<PrivateEvent, { e: K }> => isEvent(v) && (kind === undefined || v.e === kind))),
    );
  }

  /** The items of one type, unwrapped by `value`; `passive`: observe only (see the class). */
  pick<K extends ItemType, A>(type: K, value: (item: Extract<UserItem, { type: K }>) => A, passive = false): Observable<A> {
    if (passive) this.passiveTypes.add(type);
    const source$: Observable<CoreValue> = passive ? this.observed$ : this.run$;
    return this.counted(
      type,
      source$.pipe(
        filter((v): v is Extract<UserItem, { type: K }> => !isEvent(v) && v.type === type),
        map(value),
      ),
    );
  }

  /** Whether anyone listens to the items of `type` (or to the events) now (the folds and the buffer skip the work nobody reads). */
  listening(type: ItemType | 'events'): boolean {
    return (this.watchers.get(type) ?? 0) > 0;
  }

  /** `source$`, counted in `watchers` while subscribed (counted before it starts the run). */
  private counted<A>(type: ItemType | 'events', source$: Observable<A>): Observable<A> {
    return new Observable<A>((subscriber) => {
      this.watchers.set(type, (this.watchers.get(type) ?? 0) + 1);
      subscriber.add(() => this.watchers.set(type, this.watchers.get(type)! - 1));
      return source$.subscribe(subscriber);
    });
  }

  /** Tells the passive outputs that a run ended (after an error: the error, then a closed status). */
  private ended(epoch: number, cause: unknown): void {
    if (!this.observed$.observed) return;
    const error = cause === undefined ? undefined : cause instanceof Error ? cause : new Error(String(cause));
    if (error !== undefined) this.observed$.next({ type: 'error', error });
    this.observed$.next({ type: 'status', status: error ? { type: 'closed', epoch, cause: error } : { type: 'closed', epoch } });
  }
}
