// Data path (notes/architecture.md, "The data path"): the multicast of a topic's messages (step 6) and of `trades()` (step 7).
import { type MonoTypeOperatorFunction, type Observer, share, type SubjectLike, Subscriber, Subscription } from 'rxjs';

/**
 * `share()` whose subject is {@link lightSubject}: RxJS's own `share` (reference counting, resets on error,
 * completion and the last unsubscription, unchanged), multicasting through a subject that delivers a value with
 * one loop over an array. RxJS's `Subject#next` wraps every value in `errorContext` (a closure per value, for the
 * deprecated synchronous error handling) and iterates a copy of its observers with `for…of`; on `trades()`, whose
 * messages pass two `share()`s, that measured ~6-9 % of the library's time per frame (notes/performance-history.md, "The
 * tenth pass"). Behaves as `share()` (property test against it: `spec/internal/lightShare.spec.ts`), except under
 * RxJS's `config.useDeprecatedSynchronousErrorHandling`, which it ignores.
 *
 * @example
 * ```ts no-check
 * const messages$ = topicMessages$.pipe(lightShare()); // one upstream subscription, however many subscribers
 * ```
 * @internal
 */
export function lightShare<T>(): MonoTypeOperatorFunction<T> {
  return share<T>({ connector: lightSubject });
}

/**
 * A subject for `share()`'s `connector`, with `Subject`'s observable behaviour there:
 * - `next` goes to the subscribers present when the value started (one subscribing during it waits for the next
 *   value; one unsubscribed during it gets nothing more: its `Subscriber` is closed);
 * - `error` / `complete` stop it and go to every subscriber; a later subscriber gets the error or the completion
 *   at once; later notifications are ignored;
 * - a subscriber leaves when its subscription ends (the removal is added to it, as `Subject#subscribe` does).
 *
 * The array of subscribers is copied on subscribe and unsubscribe (rare), never per value. `observed`: whether it has
 * subscribers now, as `Subject#observed`.
 * @internal
 */
export function lightSubject<T>(): SubjectLike<T> & { readonly observed: boolean } {
  let subscribers: readonly Subscriber<T>[] = [];
  let stopped = false;
  let failed = false;
  let failure: unknown;
  const end = (notify: (s: Subscriber<T>) => void): void => {
    const all = subscribers;
    subscribers = [];
    for (let i = 0; i < all.length; i++) notify(all[i]!);
  };
  return {
    /** Whether it has subscribers (as `Subject#observed`). */
    get observed(): boolean {
      return subscribers.length > 0;
    },
    next(value: T): void {
      if (stopped) return;
      const all = subscribers;
      for (let i = 0; i < all.length; i++) all[i]!.next(value);
    },
    error(error: unknown): void {
      if (stopped) return;
      stopped = failed = true;
      failure = error;
      end((s) => s.error(error));
    },
    complete(): void {
      if (stopped) return;
      stopped = true;
      end((s) => s.complete());
    },
    subscribe(observer: Partial<Observer<T>>): Subscription {
      // `share()` hands its downstream `Subscriber`; anything else is wrapped in one (`new Subscriber`: see flatMapArray).
      const subscriber =
        observer instanceof Subscriber
          ? (observer as Subscriber<T>)
          : new Subscriber<T>({ next: (v) => observer.next?.(v), error: (e: unknown) => observer.error?.(e), complete: () => observer.complete?.() });
      if (stopped) {
        if (failed) subscriber.error(failure);
        else subscriber.complete();
        return Subscription.EMPTY;
      }
      subscribers = [...subscribers, subscriber];
      const leave = new Subscription(() => {
        subscribers = subscribers.filter((s) => s !== subscriber);
      });
      subscriber.add(leave);
      return leave;
    },
  };
}
