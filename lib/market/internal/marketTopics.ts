import { defer, finalize, type Observable, Subject, throwError } from 'rxjs';
import type * as t from 'io-ts';
import type { SubscriptionExtraParams } from '../../codecs/requests';
import { ConfigError } from '../../errors';
import { flatMapArray } from '../../internal/flatMapArray';
import type { MarketMessage, TopicOptions } from '../marketMessage';
import { paramsKey } from './frameQueue';
import { type MarketConfig, staleAfterOf } from './marketConfig';
import { type TopicContext, topicSubscription } from './topicSubscription';

/** The request topics whose `sub` may carry `limit` or `dumpScale`: one set of params per symbol at a time. @internal */
const PARAM_TOPICS: ReadonlySet<string> = new Set(['depth', 'mergedDepth', 'diffMergedDepth']);

/** A record codec with its name. @internal */
export type NamedDecoder<R> = t.Decoder<unknown, R> & { name: string };

/** The records of each message in order: `mergeMap((m) => m.data)` without an inner subscription per message. @internal */
export function records<R>(source: Observable<MarketMessage<R>>): Observable<R> {
  return source.pipe(flatMapArray((m: MarketMessage<R>) => m.data));
}

/**
 * The topics of one `marketStreams`: one shared subscription per `(symbol, topic, params)`, the `binary` wish of
 * its observers, the params each `(symbol, topic)` is held with, the symbol check and the incremental books'
 * resyncs. @internal
 */
export class MarketTopics {
  private readonly shared = new Map<string, Observable<unknown>>();
  /** Per `(symbol, dumpScale)`: where a broken sequence asks the topic for a fresh start. */
  private readonly resyncs = new Map<string, Subject<void>>();
  /** The `binary` wish of the observer subscribing last, per `(symbol, topic)`: the first of a shared run wins. */
  private readonly wanted = new Map<string, boolean>();
  /**
   * The params a `(symbol, topic)` is subscribed with now, and by how many observers: the service keeps one
   * subscription per symbol and topic, so another `limit` or `dumpScale` meanwhile is refused.
   */
  private readonly liveParams = new Map<string, { readonly params: string; count: number }>();

  constructor(
    private readonly ctx: TopicContext,
    private readonly cfg: Pick<MarketConfig, 'defaultBinary' | 'v2' | 'staleAfterMs' | 'checkSymbol'>,
  ) {}

  /** One shared observable per key, built on first use. */
  memo<A>(key: string, build: () => Observable<A>): Observable<A> {
    let found = this.shared.get(key) as Observable<A> | undefined;
    if (found === undefined) {
      found = build();
      this.shared.set(key, found);
    }
    return found;
  }

  /** Where a broken sequence of `key`'s (`symbol|params`) incremental book asks its topic for a fresh start. */
  resyncOf(key: string): Subject<void> {
    let found = this.resyncs.get(key);
    if (found === undefined) this.resyncs.set(key, (found = new Subject<void>()));
    return found;
  }

  /** `shared$`, noting the `binary` wish of `options` for `key` (`symbol|topic`) when subscribed. */
  withBinary<A>(key: string, options: TopicOptions | undefined, shared$: Observable<A>): Observable<A> {
    return defer(() => {
      this.wanted.set(key, options?.binary ?? this.cfg.defaultBinary);
      return shared$;
    });
  }

  /** The shared subscription of `(symbol, topic, params)`. */
  sharedTopic<R>(symbol: string, topic: string, codec: NamedDecoder<R>, params?: SubscriptionExtraParams): Observable<MarketMessage<R>> {
    const key = `${symbol}|${topic}`;
    // an incremental book whose sequence broke asks its topic for a fresh snapshot
    const resync$ = topic === 'diffMergedDepth' ? this.resyncOf(`${symbol}|${paramsKey(params)}`) : undefined;
    const { wanted, cfg } = this;
    const binary = (): boolean => wanted.get(key) ?? cfg.defaultBinary;
    const recordTime = topic === 'trade' || topic === 'depth' || topic === 'mergedDepth' || topic === 'diffMergedDepth' || topic === 'bbo';
    const staleAfterMs = staleAfterOf(topic, cfg.staleAfterMs);
    return this.memo(`${key}|${paramsKey(params)}`, () =>
      topicSubscription(this.ctx, { symbol, topic, binary, codec, staleAfterMs, recordTime, params, resync$ }),
    );
  }

  /** `source()` held with `params` for `(symbol, topic)`; other params meanwhile error with a `ConfigError`. */
  withParams<A>(symbol: string, topic: string, params: SubscriptionExtraParams | undefined, source: () => Observable<A>): Observable<A> {
    const { liveParams } = this;
    return defer(() => {
      const key = `${symbol}|${topic}`;
      const wantedParams = paramsKey(params);
      const live = liveParams.get(key);
      if (live !== undefined && live.params !== wantedParams) {
        const option = params?.dumpScale !== undefined ? 'dumpScale' : 'limit';
        return throwError(() => new ConfigError(option, `${symbol} ${topic} is subscribed with other params (one limit and dumpScale per symbol and topic at a time)`));
      }
      const held = live ?? { params: wantedParams, count: 0 };
      held.count += 1;
      liveParams.set(key, held);
      return source().pipe(
        finalize(() => {
          if (--held.count === 0 && liveParams.get(key) === held) liveParams.delete(key);
        }),
      );
    });
  }

  /** `source()` when `symbol` is one, else an observable that errors with the `ConfigError` that says why (nothing is sent). */
  checked<A>(symbol: string, source: () => Observable<A>): Observable<A> {
    const problem = this.cfg.checkSymbol(symbol);
    return problem === undefined ? source() : throwError(() => problem);
  }

  /** The messages of `(symbol, topic)` with `params`, checked and shared. */
  messages<R>(symbol: string, topic: string, codec: NamedDecoder<R>, options?: TopicOptions, params?: SubscriptionExtraParams): Observable<MarketMessage<R>> {
    if (this.cfg.v2 && options?.binary === true) return throwError(() => new ConfigError('binary', 'V2 sends JSON only (binary frames are V1)'));
    return this.checked(symbol, () =>
      // the topics that take params are held with the params they have (none is one too)
      params === undefined && !PARAM_TOPICS.has(topic)
        ? this.withBinary(`${symbol}|${topic}`, options, this.sharedTopic(symbol, topic, codec))
        : this.withParams(symbol, topic, params, () => this.withBinary(`${symbol}|${topic}`, options, this.sharedTopic(symbol, topic, codec, params))),
    );
  }
}
