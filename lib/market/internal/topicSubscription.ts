import type * as t from 'io-ts';
import { catchError, EMPTY, expand, map, Observable, type SchedulerLike, Subscription, switchMap, timer } from 'rxjs';
import { inPlaceCheckOf } from '../../codecs/fastCheck';
import type { PublicEnvelope } from '../../codecs/envelope';
import { cancelFrame, subscribeFrame } from '../../codecs/requests';
import { SubscriptionRejectedError } from '../../errors';
import { lightShare } from '../../internal/lightShare';
import { backoffDelayMs } from '../../operators/reconnect';
import type { Connection } from '../../socket/connection';
import { silenceWatchdog } from '../../socket/silenceWatchdog';
import type { MarketMessage } from '../marketMessage';
import type { Pacer } from './pacer';
import type { RoutedTopic, TopicRouter } from './topicRouter';

/** What every topic subscription of one `marketStreams` shares. @internal */
export interface TopicContext {
  readonly conn: Connection;
  readonly router: TopicRouter;
  /** The market feed (`marketFeed`): keeps the socket open and the router fed while subscribed; errors when the connection gives up. */
  readonly feed$: Observable<never>;
  readonly pacer: Pacer;
  readonly scheduler: SchedulerLike;
  /**
   * A `sub` that brought no message within this many ms is sent again; the n-th `sub` in a row waits
   * `max(subscribeTimeoutMs, backoffDelayMs(n, subscribeTimeoutMs, 60 000, 2, random))`.
   */
  readonly subscribeTimeoutMs: number;
  /** Jitter of the re-sent `sub`s, in [0, 1). */
  readonly random: () => number;
  nextId(): number;
  /** The scheduler time at which the frame being dispatched arrived (read by `deliver`, no clock read per message). */
  frameAt(): number;
  /** A message with a send time (or a record time) was delivered on the socket of `epoch`, from the frame being dispatched. */
  onDelivered(sentAt: number, epoch: number): void;
  /** A `sub` was sent again because the previous one brought nothing. */
  onResubscribed(): void;
  /** A topic that went silent for its `staleAfterMs` was cancelled and subscribed again. */
  onStale(): void;
  onRejected(): void;
  onTopicsChanged(): void;
}

/** Longest wait between two unanswered `sub` frames of one topic. @internal */
const MAX_SUBSCRIBE_WAIT_MS = 60_000;

/** One `(symbol, topic)` request. @internal */
export interface TopicRequest<R> {
  readonly symbol: string;
  readonly topic: string;
  /** Zip frames? Read when the subscription starts (the first observer's wish). */
  readonly binary: () => boolean;
  readonly codec: t.Decoder<unknown, R> & { readonly name: string };
  /** Silence (no data message) after which the topic is cancelled and subscribed again; `Infinity`: never. */
  readonly staleAfterMs: number;
  /** The records carry their own time in `t` (trades, depth): the age of a message without `sendTime`. */
  readonly recordTime: boolean;
}

/** The `t` of the last record, when it is a time. @internal */
function lastRecordTime(data: readonly unknown[]): number | undefined {
  const last = data[data.length - 1] as { readonly t?: unknown } | undefined;
  return typeof last === 'object' && last !== null && typeof last.t === 'number' ? last.t : undefined;
}

/**
 * Data path, market side (docs/architecture.md, "The data path"): step 6, after `TopicRouter` decoded a
 * message's records. One server subscription as a cold, reference-counted observable: on subscribe it registers with the
 * router, keeps the connection open and sends `sub` (paced) on every `opened$` emission, so it is
 * re-sent after each reconnect, and again whenever it brought no message within `subscribeTimeoutMs` (then
 * after `reconnect`'s jittered backoff, at least the timeout, capped at a minute); once answered, a topic that delivers no data message for `staleAfterMs` is
 * cancelled and subscribed again (`onStale`). On the last unsubscribe it sends `cancel` (when its `sub` went
 * out on the current socket). A service error frame errors it with a `SubscriptionRejectedError`.
 * @internal
 */
export function topicSubscription<R>(ctx: TopicContext, request: TopicRequest<R>): Observable<MarketMessage<R>> {
  const { symbol, topic, codec, staleAfterMs: stale, recordTime } = request;
  const check = inPlaceCheckOf(codec);
  return new Observable<MarketMessage<R>>((subscriber) => {
    const binary = request.binary();
    let subscribedEpoch: number | undefined;
    let rejected = false;
    let heard = false;
    /** When the last data message (or the current `sub`) came: the staleness watch measures silence from it. */
    let lastHeardAt = 0;
    const entry: RoutedTopic<R> & { lastMessage: PublicEnvelope<unknown> | undefined } = {
      symbol,
      topic,
      codec,
      check,
      /**
       * The last message delivered, kept until the next one: it keeps the hidden classes (V8 maps) of the topic's
       * parsed messages alive. When no object of a parsed shape is left, a full garbage collection drops its map,
       * and every optimised function that checks or reads that shape is deoptimised and compiled again (measured
       * in docs/performance.md). One message per topic, gone with the subscription.
       */
      lastMessage: undefined,
      deliver: (envelope: PublicEnvelope<unknown>, data: readonly R[], epoch: number) => {
        heard = true;
        entry.lastMessage = envelope;
        lastHeardAt = ctx.frameAt();
        const first = envelope.f === true;
        const sentAt = envelope.sendTime ?? (recordTime ? lastRecordTime(data) : undefined);
        if (sentAt !== undefined) ctx.onDelivered(sentAt, epoch);
        // Two literal shapes rather than a spread: no temporary object per message.
        subscriber.next(
          envelope.sendTime !== undefined
            ? { symbol, topic, first, sendTime: envelope.sendTime, epoch, data }
            : { symbol, topic, first, epoch, data },
        );
      },
      acknowledge: () => {
        heard = true;
      },
      reject: (frame) => {
        rejected = true;
        ctx.onRejected();
        subscriber.error(new SubscriptionRejectedError(symbol, topic, frame.code, frame.desc ?? frame.msg));
      },
    };
    ctx.router.add(entry);
    ctx.onTopicsChanged();
    const subscriptions = new Subscription();
    subscriptions.add(ctx.feed$.subscribe({ error: (e: unknown) => subscriber.error(e) }));
    /** Sends `sub` in the next pacing slot, with a new id. */
    const subscribe = (epoch: number): Observable<number> =>
      ctx.pacer.slot().pipe(
        map(() => {
          const id = ctx.nextId();
          ctx.router.setId(entry, String(id));
          heard = false;
          lastHeardAt = ctx.scheduler.now();
          if (ctx.conn.sendIfOpen(subscribeFrame(symbol, topic, binary, id))) subscribedEpoch = epoch;
          return epoch;
        }),
      );
    // The service does not acknowledge a `sub` (some deployments answer code 0): its first message is the
    // answer (it always comes at once, with the current snapshot or the last 60 trades). A `sub` lost on the way (a stalled server dropping frames
    // while the socket itself stays healthy) would otherwise leave the topic silent for good.
    const { subscribeTimeoutMs: timeout, scheduler, random } = ctx;
    const maxWait = Math.max(timeout, MAX_SUBSCRIBE_WAIT_MS);
    const watched = (epoch: number): Observable<number> => {
      /** `sub`s sent in a row without an answer. */
      let sends = 0;
      /** Data silence once answered: `cancel`, then `sub` again (the wait for its answer starts over). */
      const watchSilence = (): Observable<number> =>
        Number.isFinite(stale)
          ? silenceWatchdog(stale, () => lastHeardAt, scheduler).pipe(
              catchError(() => {
                ctx.onStale();
                ctx.conn.sendIfOpen(cancelFrame(symbol, topic, binary, ctx.nextId()));
                sends = 0;
                return subscribe(epoch);
              }),
            )
          : EMPTY;
      /**
       * After each `sub`: wait for its answer, then watch for silence; unanswered, send it again. The wait is the
       * library's one backoff (`reconnect`'s jittered formula), never shorter than the timeout: every `sub` gets
       * `subscribeTimeoutMs` to be answered.
       */
      const afterSubscribe = (): Observable<number> => {
        if (!Number.isFinite(timeout)) return watchSilence();
        sends += 1;
        const delay = Math.max(timeout, backoffDelayMs(sends, timeout, maxWait, 2, random));
        return timer(delay, scheduler).pipe(
          switchMap(() => {
            if (heard) return watchSilence();
            ctx.onResubscribed();
            return subscribe(epoch);
          }),
        );
      };
      return subscribe(epoch).pipe(expand(afterSubscribe));
    };
    subscriptions.add(ctx.conn.opened$.pipe(switchMap(watched)).subscribe());
    return () => {
      if (!rejected && subscribedEpoch !== undefined && subscribedEpoch === ctx.router.epoch) {
        ctx.conn.sendIfOpen(cancelFrame(symbol, topic, binary, ctx.nextId()));
      }
      ctx.router.remove(entry);
      ctx.onTopicsChanged();
      subscriptions.unsubscribe();
    };
  }).pipe(lightShare());
}
