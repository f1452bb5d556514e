import { type Observable, ReplaySubject, share, type Subject, throwError } from 'rxjs';
import { DepthRecordCodec } from '../../codecs/depth';
import { ConfigError } from '../../errors';
import { type BookGap, incrementalBook } from '../../operators/incrementalBook';
import type { OrderBook } from '../../operators/orderBook';
import type { MergedDepthOptions } from '../marketMessage';
import { paramsKey } from './frameQueue';
import { mergedParams } from './marketConfig';
import type { MarketStatusState } from './marketStatusState';
import { type MarketTopics, records } from './marketTopics';

/**
 * `MarketStreams.incrementalBook`: the book kept from `symbol`'s `diffMergedDepth`, shared per `(symbol, params,
 * levels)`; a break is counted, signalled on `bookGaps` and asks the topic for a fresh start. @internal
 */
export function incrementalBookStream(
  topics: MarketTopics,
  status: Pick<MarketStatusState, 'count'>,
  bookGaps: Subject<BookGap>,
  symbol: string,
  options: Omit<MergedDepthOptions, 'limit'> & { readonly levels?: number | undefined },
): Observable<OrderBook> {
  const params = mergedParams(options, false);
  if (params instanceof ConfigError) return throwError(() => params);
  const levels = options.levels;
  if (levels !== undefined && !(Number.isInteger(levels) && levels > 0)) return throwError(() => new ConfigError('levels', 'must be a positive integer'));
  const key = `${symbol}|${paramsKey(params)}`;
  const resync = topics.resyncOf(key);
  const onBookGap = (gap: BookGap): void => {
    status.count((c) => ({ bookGaps: (c.bookGaps ?? 0) + 1 }));
    bookGaps.next(gap.symbol === '' ? { ...gap, symbol } : gap);
    resync.next();
  };
  return topics.checked(symbol, () =>
    topics.withParams(symbol, 'diffMergedDepth', params, () =>
      topics.withBinary(
        `${symbol}|diffMergedDepth`,
        options,
        topics.memo(`${key}|book|${levels ?? ''}`, () =>
          records(topics.sharedTopic(symbol, 'diffMergedDepth', DepthRecordCodec, params)).pipe(
            incrementalBook({ onGap: onBookGap, ...(levels !== undefined && { levels }) }),
            share({ connector: () => new ReplaySubject<OrderBook>(1), resetOnError: true, resetOnComplete: true, resetOnRefCountZero: true }),
          ),
        ),
      ),
    ),
  );
}
