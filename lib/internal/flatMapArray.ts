import { Observable, type OperatorFunction, Subscriber } from 'rxjs';

/**
 * `mergeMap(project)` for a `project` that returns an array: the items of each value's array, in order and
 * synchronously, without the inner subscription `mergeMap` makes per value. The stand-in pays on the hot path of
 * `trades()` (about 10 % less library time per frame in the public-API benchmark, notes/performance-history.md) and behaves
 * as `mergeMap` does (property test: `spec/internal/flatMapArray.spec.ts`): errors and completion pass through, a
 * throwing `project` errors the output, and an unsubscription downstream (`take(n)`) stops the source at once,
 * even a synchronous one that would never end by itself: the source is subscribed with a `Subscriber` chained to
 * the output's before it starts, so it sees `closed` during its own emission loop.
 * @internal
 */
export function flatMapArray<T, R>(project: (value: T) => readonly R[]): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      // `new Subscriber(observer)`: marked internal for RxJS 8; in 7 it is the one public way to hand a source a
      // subscriber that is closed by our teardown before `subscribe` returns (a plain observer is wrapped in one we
      // cannot reach until then).
      const upstream = new Subscriber<T>({
        next: (value) => {
          let items: readonly R[];
          try {
            items = project(value);
          } catch (e: unknown) {
            subscriber.error(e);
            return;
          }
          for (let i = 0; i < items.length && !subscriber.closed; i++) subscriber.next(items[i] as R);
        },
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
      subscriber.add(upstream);
      source.subscribe(upstream);
    });
}
