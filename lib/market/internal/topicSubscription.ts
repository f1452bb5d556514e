import type * as t from 'io-ts';
import { catchError, expand, map, NEVER, Observable, of, type SchedulerLike, Subscription, switchMap, timer } from 'rxjs';
import { inPlaceCheckOf } from '../../codecs/fastCheck';
import type { PublicEnvelope } from '../../codecs/envelope';
import type { SubscriptionExtraParams } from '../../codecs/requests';
import { lightShare } from '../../internal/lightShare';
import { backoffDelayMs } from '../../operators/reconnect';
import type { Connection } from '../../socket/connection';
import { silenceWatchdog } from '../../socket/silenceWatchdog';
import type { MarketMessage } from '../marketMessage';
import type { BatchedTopic, RequestBatcher } from './batchedTopic';
import type { MarketStatusState } from './marketStatusState';
import type { RoutedTopic, TopicRouter } from './topicRouter';

/** What a topic subscription reads and updates of the {@link MarketStatusState}. @internal */
export type TopicStatus = Pick<MarketStatusState, 'frameAt' | 'keptMessage' | 'delivered' | 'resubscribed' | 'stale' | 'rejected' | 'topicsChanged'>;

/** What every topic subscription of one `marketStreams` shares. @internal */
export interface TopicContext {
  readonly conn: Pick<Connection, 'opened$'>;
  readonly router: TopicRouter;
  /** The market feed (`marketFeed`): keeps the socket open and the router fed while subscribed; errors when the connection gives up. */
  readonly feed$: Observable<never>;
  /** Where the `sub` and `cancel` requests go (batched, paced), and where the service's word on them comes from. */
  readonly requests: RequestBatcher;
  readonly scheduler: SchedulerLike;
  /**
   * A `sub` that brought no message within this many ms is sent again; the n-th `sub` in a row waits
   * `max(subscribeTimeoutMs, backoffDelayMs(n, subscribeTimeoutMs, 60 000, 2, random))`.
   */
  readonly subscribeTimeoutMs: number;
  /** Jitter of the re-sent `sub`s, in [0, 1). */
  readonly random: () => number;
  /**
   * The status and counters the subscriptions update: the kept messages, the frame time, the deliveries (data age),
   * the resubscribe, stale, rejection and topic counters.
   */
  readonly status: TopicStatus;
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
  /** Params of its frames besides `binary` (`limit`, `dumpScale`). Default: none. */
  readonly params?: SubscriptionExtraParams | undefined;
  /**
   * Each emission asks for a fresh start of the topic: `cancel`, then `sub` again (an incremental book whose sequence
   * broke wants a new snapshot). Default: none.
   */
  readonly resync$?: Observable<unknown> | undefined;
}

/** The `t` of the last record, when it is a time. @internal */
function lastRecordTime(data: readonly unknown[]): number | undefined {
  const last = data[data.length - 1] as { readonly t?: unknown } | undefined;
  return typeof last === 'object' && last !== null && typeof last.t === 'number' ? last.t : undefined;
}

/** What comes after a `sub` went out: no answer in time, a silence once answered, or the batcher's resend (a delay). */
type NextStep = 'unanswered' | 'stale' | 'resync' | number;

/** What one subscription knows of its answers, written as messages come and read by its `sub` loop. */
interface Hearing {
  /** Whether the current `sub` was answered (a data message, or the service's acknowledgement). */
  heard: boolean;
  /** When the last data message (or the current `sub`) came: the staleness watch measures silence from it. */
  lastHeardAt: number;
  /** Where the batcher's request to send the `sub` again (after a delay) goes: the wait in progress, if any. */
  onResend: ((delayMs: number) => void) | undefined;
}

/**
 * Data path, market side (notes/architecture.md, "The data path"): step 6, after `TopicRouter` decoded a
 * message's records. One server subscription as a cold, reference-counted observable: on subscribe it registers
 * with the router, keeps the connection open and hands its `sub` to the batcher (`requestBatcher`: batched with
 * other topics, paced) on every `opened$` emission, so it is re-sent after each reconnect, and again whenever it
 * brought no message within `subscribeTimeoutMs` (then after `reconnect`'s jittered backoff, at least the timeout,
 * capped at a minute), or when the batcher asks (the service refused it for now, or it is a suspect of a refused
 * batch); once answered, a topic that delivers no data message for `staleAfterMs` is cancelled and subscribed again
 * (`onStale`). On the last unsubscribe its `cancel` goes to the batcher (sent when its `sub` went out on the
 * current socket). The batcher's verdict (`SubscriptionRejectedError`, `TopicQuarantinedError`) errors it.
 * @internal
 */
export function topicSubscription<R>(ctx: TopicContext, request: TopicRequest<R>): Observable<MarketMessage<R>> {
  const { symbol, topic, codec, staleAfterMs: stale, recordTime, params, resync$ } = request;
  const check = inPlaceCheckOf(codec);
  return new Observable<MarketMessage<R>>((subscriber) => {
    const binary = request.binary();
    let ended = false;
    const hearing: Hearing = { heard: false, lastHeardAt: 0, onResend: undefined };
    const kept = ctx.status.keptMessage(topic);
    const entry: RoutedTopic<R> & BatchedTopic = {
      symbol,
      topic,
      binary,
      params,
      codec,
      check,
      deliver: (envelope: PublicEnvelope<unknown>, data: readonly R[], epoch: number) => {
        if (!hearing.heard) {
          hearing.heard = true;
          ctx.requests.answered(entry);
        }
        // The last message of this topic name (any symbol), kept until the next one: it keeps the hidden classes (V8
        // maps) of the topic's parsed messages alive. When no object of a parsed shape is left, a full garbage
        // collection drops its map, and every optimised function that checks or reads that shape is deoptimised and
        // compiled again (measured in notes/performance-history.md). One message per topic name, not per subscription: kept
        // per subscription, every message lived until its topic's next one (a book 2 s), so each outlived a scavenge
        // and was copied and promoted (~85 MB per 10 s in a process following 300 pairs; notes/performance-history.md).
        kept.last = envelope;
        hearing.lastHeardAt = ctx.status.frameAt;
        const first = envelope.f === true;
        const sentAt = envelope.sendTime ?? (recordTime ? lastRecordTime(data) : undefined);
        if (sentAt !== undefined) ctx.status.delivered(sentAt, epoch);
        // Two literal shapes rather than a spread: no temporary object per message.
        subscriber.next(
          envelope.sendTime !== undefined
            ? { symbol, topic, first, sendTime: envelope.sendTime, epoch, data }
            : { symbol, topic, first, epoch, data },
        );
      },
      acknowledge: () => {
        hearing.heard = true;
      },
      refuse: (error) => {
        ended = true;
        ctx.status.rejected();
        subscriber.error(error);
      },
      resend: (delayMs) => hearing.onResend?.(delayMs),
    };
    ctx.router.add(entry);
    ctx.status.topicsChanged(ctx.router.size);
    const subscriptions = new Subscription();
    subscriptions.add(ctx.feed$.subscribe({ error: (e: unknown) => subscriber.error(e) }));
    subscriptions.add(ctx.conn.opened$.pipe(switchMap(subLoop(ctx, entry, hearing, stale, resync$))).subscribe());
    return () => {
      ctx.requests.forget(entry, !ended);
      ctx.router.remove(entry);
      ctx.status.topicsChanged(ctx.router.size);
      subscriptions.unsubscribe();
    };
  }).pipe(lightShare());
}

/**
 * The first of: the wait's outcome (at most one), a resend the batcher asks for (its delay), or a fresh start
 * `resync$` asks for. Not `merge` and `take`: a live topic holds this wait, two fewer subscribers each
 * (notes/performance-history.md, memory). @internal
 */
function nextStep(hearing: Hearing, waitForAnswer: Observable<NextStep>, resync$: Observable<unknown> | undefined): Observable<NextStep> {
  return new Observable<NextStep>((subscriber) => {
    const resend = (delayMs: number): void => {
      subscriber.next(delayMs);
      subscriber.complete();
    };
    hearing.onResend = resend;
    const waiting = waitForAnswer.subscribe(subscriber);
    const resyncing = resync$?.subscribe(() => {
      subscriber.next('resync');
      subscriber.complete();
    });
    return () => {
      if (hearing.onResend === resend) hearing.onResend = undefined;
      waiting.unsubscribe();
      resyncing?.unsubscribe();
    };
  });
}

/**
 * The `sub` loop of one subscription, per socket (`epoch`): hands its `sub` to the batcher, then waits for its
 * answer (sent again when none came in time, after `reconnect`'s jittered backoff, at least `subscribeTimeoutMs`,
 * capped at a minute), watches for silence once answered (`staleAfterMs`: `cancel`, then `sub` again), and follows
 * the batcher's resends and the fresh starts `resync$` asks for. Emits the epoch whenever a `sub` left.
 */
function subLoop<R>(
  ctx: TopicContext,
  entry: RoutedTopic<R> & BatchedTopic,
  hearing: Hearing,
  stale: number,
  resync$: Observable<unknown> | undefined,
): (epoch: number) => Observable<number> {
  /** Hands `sub` to the batcher; emits when its frame left (with a new id). */
  const subscribe = (epoch: number): Observable<number> =>
    ctx.requests.sub(entry, epoch).pipe(
      map(({ id }) => {
        ctx.router.setId(entry, id);
        hearing.heard = false;
        hearing.lastHeardAt = ctx.scheduler.now();
        return epoch;
      }),
    );
  // The service does not acknowledge a `sub` (some deployments answer code 0): its first message is the
  // answer (it always comes at once, with the current snapshot or the last 60 trades). A `sub` lost on the way (a stalled server dropping frames
  // while the socket itself stays healthy) would otherwise leave the topic silent for good.
  const { subscribeTimeoutMs: timeout, scheduler, random } = ctx;
  const maxWait = Math.max(timeout, MAX_SUBSCRIBE_WAIT_MS);
  return (epoch: number): Observable<number> => {
    /** `sub`s sent in a row without an answer. */
    let sends = 0;
    /** Data silence once answered (`Infinity`: never). */
    const silence = (): Observable<NextStep> =>
      Number.isFinite(stale) ? silenceWatchdog(stale, () => hearing.lastHeardAt, scheduler).pipe(catchError(() => of<NextStep>('stale'))) : NEVER;
    /**
     * After each `sub`: wait for its answer, then watch for silence; unanswered, send it again. The wait is the
     * library's one backoff (`reconnect`'s jittered formula), never shorter than the timeout: every `sub` gets
     * `subscribeTimeoutMs` to be answered. Whatever comes first (that, or a resend the batcher asks for) decides.
     */
    const afterSubscribe = (): Observable<number> => {
      let waitForAnswer: Observable<NextStep>;
      if (Number.isFinite(timeout)) {
        sends += 1;
        const delay = Math.max(timeout, backoffDelayMs(sends, timeout, maxWait, 2, random));
        waitForAnswer = timer(delay, scheduler).pipe(switchMap(() => (hearing.heard ? silence() : of<NextStep>('unanswered'))));
      } else waitForAnswer = silence();
      return nextStep(hearing, waitForAnswer, resync$).pipe(
        switchMap((step) => {
          if (step === 'unanswered') {
            ctx.status.resubscribed();
            return subscribe(epoch);
          }
          if (step === 'stale' || step === 'resync') {
            // Data silence once answered, or a fresh start asked for: `cancel`, then `sub` again (the wait for its
            // answer starts over).
            if (step === 'stale') ctx.status.stale();
            ctx.requests.cancel(entry);
            sends = 0;
            return subscribe(epoch);
          }
          sends = 0;
          return timer(step, scheduler).pipe(switchMap(() => subscribe(epoch)));
        }),
      );
    };
    return subscribe(epoch).pipe(expand(afterSubscribe));
  };
}
