import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { map, Observable, share, Subscription, switchMap } from 'rxjs';
import { decodeWith } from '../../codecs/decode';
import { fastCheckOf } from '../../codecs/fast/fastCodec';
import { FAIL, type FastCheck } from '../../codecs/fast/scalars';
import type { PublicEnvelope } from '../../codecs/envelope';
import { cancelFrame, subscribeFrame } from '../../codecs/requests';
import { type DecodeError, SubscriptionRejectedError } from '../../errors';
import type { Connection } from '../../socket/connection';
import type { MarketMessage } from '../marketMessage';
import type { Pacer } from './pacer';
import type { RoutedTopic, TopicRouter } from './topicRouter';

/** What every topic subscription of one `marketStreams` shares. @internal */
export interface TopicContext {
  readonly conn: Connection;
  readonly router: TopicRouter;
  /** Keeps the socket open and the router fed while subscribed; errors when the connection gives up. */
  readonly router$: Observable<never>;
  readonly pacer: Pacer;
  nextId(): number;
  onDecodeError(error: DecodeError): void;
  onRejected(): void;
  onTopicsChanged(): void;
}

/** One `(symbol, topic)` request. @internal */
export interface TopicRequest<R> {
  readonly symbol: string;
  readonly topic: string;
  /** Zip frames? Read when the subscription starts (the first observer's wish). */
  readonly binary: () => boolean;
  readonly codec: t.Decoder<unknown, R> & { readonly name: string };
}

/**
 * The records of one message: each through the codec's fast check when it has one (no io-ts context, no
 * `Either`), through `decodeWith` otherwise and whenever the check fails (for the exact errors).
 */
function decodeRecords<R>(ctx: TopicContext, codec: TopicRequest<R>['codec'], check: FastCheck<R> | undefined, data: readonly unknown[]): R[] {
  const n = data.length;
  // The parsed `data` array itself while every record passes unchanged (the common case): it belongs to
  // this message alone, so no copy is needed. A copy starts at the first converted or failed record.
  let out: R[] | undefined;
  for (let i = 0; i < n; i++) {
    const item = data[i];
    const fast = check === undefined ? FAIL : check(item);
    if (fast !== FAIL) {
      if (out !== undefined) out.push(fast);
      else if (fast !== item) (out = data.slice(0, i) as R[]).push(fast);
      continue;
    }
    out ??= data.slice(0, i) as R[];
    const decoded = decodeWith(codec, item);
    if (E.isRight(decoded)) out.push(decoded.right);
    else ctx.onDecodeError(decoded.left);
  }
  return out ?? (data as R[]);
}

/**
 * One server subscription as a cold, reference-counted observable: on subscribe it registers with the
 * router, keeps the connection open and sends `sub` (paced) on every `opened$` emission, so it is
 * re-sent after each reconnect; on the last unsubscribe it sends `cancel` (when its `sub` went out on the
 * current socket). A service error frame errors it with a `SubscriptionRejectedError`.
 * @internal
 */
export function topicSubscription<R>(ctx: TopicContext, request: TopicRequest<R>): Observable<MarketMessage<R>> {
  const { symbol, topic, codec } = request;
  const check = fastCheckOf(codec);
  return new Observable<MarketMessage<R>>((subscriber) => {
    const binary = request.binary();
    let subscribedEpoch: number | undefined;
    let rejected = false;
    const entry: RoutedTopic = {
      symbol,
      topic,
      deliver: (envelope: PublicEnvelope<unknown>, epoch: number) => {
        const data = decodeRecords(ctx, codec, check, envelope.data);
        const first = envelope.f === true;
        // Two literal shapes rather than a spread: no temporary object per message.
        subscriber.next(
          envelope.sendTime !== undefined
            ? { symbol, topic, first, sendTime: envelope.sendTime, epoch, data }
            : { symbol, topic, first, epoch, data },
        );
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
    subscriptions.add(ctx.router$.subscribe({ error: (e: unknown) => subscriber.error(e) }));
    subscriptions.add(
      ctx.conn.opened$
        .pipe(switchMap((epoch) => ctx.pacer.slot().pipe(map(() => epoch))))
        .subscribe((epoch) => {
          const id = ctx.nextId();
          ctx.router.setId(entry, String(id));
          if (ctx.conn.sendIfOpen(subscribeFrame(symbol, topic, binary, id))) subscribedEpoch = epoch;
        }),
    );
    return () => {
      if (!rejected && subscribedEpoch !== undefined && subscribedEpoch === ctx.router.epoch) {
        ctx.conn.sendIfOpen(cancelFrame(symbol, topic, binary, ctx.nextId()));
      }
      ctx.router.remove(entry);
      ctx.onTopicsChanged();
      subscriptions.unsubscribe();
    };
  }).pipe(share());
}
