import { type MonoTypeOperatorFunction, Observable, type Observer, type Subscriber, Subscription } from 'rxjs';

/**
 * One connection to the source: the observer `shareFrames` subscribes with. It is a `Subscription` with
 * `next`/`error`/`complete`, so RxJS hands this very object to the source (no wrapper): when the last
 * subscriber leaves during a synchronous emission, `unsubscribe()` closes it and a source that checks
 * `subscriber.closed` (`from`, `range`, a `while (!subscriber.closed)` loop) stops at once, as with `share()`.
 */
class FrameConnection<T> extends Subscription implements Observer<T> {
  private stopped = false;

  constructor(
    private readonly deliver: (value: T) => void,
    private readonly end: (notify: (subscriber: Subscriber<T>) => void) => void,
  ) {
    super();
  }

  next(value: T): void {
    if (!this.stopped && !this.closed) this.deliver(value);
  }

  error(error: unknown): void {
    this.stop((s) => s.error(error));
  }

  complete(): void {
    this.stop((s) => s.complete());
  }

  /** As a `Subscriber`: notify first, then release the source. */
  private stop(notify: (subscriber: Subscriber<T>) => void): void {
    if (this.stopped || this.closed) return;
    this.stopped = true;
    this.end(notify);
    this.unsubscribe();
  }
}

/**
 * `share()` with its default configuration, for the streams that carry every frame: one connection to the
 * source while anyone is subscribed (the first subscriber connects, the last one leaving disconnects, even in
 * the middle of a synchronous emission; after an error or a completion, reaching every subscriber, the next
 * subscriber connects afresh), and each value goes to the subscribers by one plain loop. RxJS's
 * `Subject.next`, in the ES5 CommonJS build that Node resolves, allocates a closure and an iterator per value;
 * this allocates nothing per value. The ordering rules are a `Subject`'s: a subscriber added during an
 * emission gets the next value, not the current one, and one that leaves during an emission gets nothing more.
 * `spec/internal/shareFrames.spec.ts` checks it against `share()`, synchronous sources and early
 * unsubscription included.
 * @internal
 */
export function shareFrames<T>(): MonoTypeOperatorFunction<T> {
  return (source) => {
    let subscribers: readonly Subscriber<T>[] = [];
    let connection: FrameConnection<T> | undefined;
    const connect = (): void => {
      // Registered before subscribing: the source may emit, error, complete or be dropped synchronously.
      const current: FrameConnection<T> = new FrameConnection<T>(
        (value) => {
          const list = subscribers;
          for (let i = 0; i < list.length; i++) list[i]!.next(value);
        },
        (notify) => {
          const all = subscribers;
          subscribers = [];
          connection = undefined;
          for (let i = 0; i < all.length; i++) notify(all[i]!);
        },
      );
      connection = current;
      source.subscribe(current);
    };
    return new Observable<T>((subscriber) => {
      subscribers = [...subscribers, subscriber];
      // Added before connecting (not returned): a subscriber leaving during the source's synchronous emissions
      // (`take(1)` downstream) must release it there and then.
      subscriber.add(() => {
        if (!subscribers.includes(subscriber)) return; // gone with an error or completion
        subscribers = subscribers.filter((s) => s !== subscriber);
        if (subscribers.length === 0 && connection !== undefined) {
          const current = connection;
          connection = undefined;
          current.unsubscribe();
        }
      });
      if (connection === undefined) connect();
    });
  };
}
