import { type MonoTypeOperatorFunction, Observable, type Subscriber, Subscription } from 'rxjs';

/**
 * `share()` with its default configuration, for the streams that carry every frame: one connection to the
 * source while anyone is subscribed (the first subscriber connects, the last one leaving disconnects; after an
 * error or a completion, reaching every subscriber, the next subscriber connects afresh), and each value goes
 * to the subscribers by one plain loop. RxJS's `Subject.next`, in the ES5 CommonJS build that Node resolves,
 * allocates a closure and an iterator per value; this allocates nothing per value. The ordering rules are a
 * `Subject`'s: a subscriber added during an emission gets the next value, not the current one, and one that
 * leaves during an emission gets nothing more.
 * @internal
 */
export function shareFrames<T>(): MonoTypeOperatorFunction<T> {
  return (source) => {
    let subscribers: readonly Subscriber<T>[] = [];
    let connection: Subscription | undefined;
    /** Ends the current connection's bookkeeping and returns who was subscribed. */
    const reset = (): readonly Subscriber<T>[] => {
      const all = subscribers;
      subscribers = [];
      connection = undefined;
      return all;
    };
    const connect = (): void => {
      // Registered before subscribing: the source may emit, error or complete synchronously.
      const current = new Subscription();
      connection = current;
      current.add(
        source.subscribe({
          next: (value) => {
            const list = subscribers;
            for (let i = 0; i < list.length; i++) list[i]!.next(value);
          },
          error: (error: unknown) => {
            if (connection !== current) return;
            const all = reset();
            for (let i = 0; i < all.length; i++) all[i]!.error(error);
          },
          complete: () => {
            if (connection !== current) return;
            const all = reset();
            for (let i = 0; i < all.length; i++) all[i]!.complete();
          },
        }),
      );
    };
    return new Observable<T>((subscriber) => {
      subscribers = [...subscribers, subscriber];
      if (connection === undefined) connect();
      return () => {
        if (!subscribers.includes(subscriber)) return; // gone with an error or completion
        subscribers = subscribers.filter((s) => s !== subscriber);
        if (subscribers.length === 0 && connection !== undefined) {
          const current = connection;
          connection = undefined;
          current.unsubscribe();
        }
      };
    });
  };
}
