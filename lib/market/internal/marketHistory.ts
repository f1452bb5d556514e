import { identity, type MonoTypeOperatorFunction, type OperatorFunction, type Subject } from 'rxjs';
import type { KlineRecord } from '../../codecs/kline';
import type { TradeRecord } from '../../codecs/trade';
import { backfillTrades } from '../../operators/backfillTrades';
import type { TradeGap } from '../../operators/distinctTrades';
import type { KlineGap } from '../klineGap';
import type { MarketMessage } from '../marketMessage';
import { klineFetcher, restKlinePages } from './klineFetcher';
import { klineHistory as withKlineHistory, type KlineHistoryGap } from './klineHistory';
import { intervalMs, type MarketConfig } from './marketConfig';
import type { MarketStatusState } from './marketStatusState';
import { restTrades } from './restTrades';

/** Trades a backfill asks for: the most `GET /quote/v1/trades` serves. @internal */
const BACKFILL_LIMIT = 100;
/** Candles one history page asks for: the most `GET /quote/v1/klines` serves. @internal */
const KLINE_PAGE_LIMIT = 1000;

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * The trade backfill of `cfg.tradeBackfill` (`GET /quote/v1/trades` after a replay shows a gap), or no change without
 * one; `onGap`: what it could not cover; a failed fetch goes to `errors`. @internal
 */
export function tradeBackfillOf(
  cfg: Pick<MarketConfig, 'tradeBackfill' | 'tradeReplaySize' | 'scheduler'>,
  onGap: (gap: TradeGap) => void,
  errors: Subject<Error>,
): MonoTypeOperatorFunction<MarketMessage<TradeRecord>> {
  const { tradeBackfill, tradeReplaySize, scheduler } = cfg;
  return tradeBackfill
    ? backfillTrades<TradeRecord, MarketMessage<TradeRecord>>(restTrades(tradeBackfill.rest, BACKFILL_LIMIT), {
        onGap,
        onError: (error) => errors.next(asError(error)),
        replaySize: tradeReplaySize,
        limit: BACKFILL_LIMIT,
        scheduler,
        ...(tradeBackfill.timeoutMs !== undefined && { timeoutMs: tradeBackfill.timeoutMs }),
      })
    : identity;
}

/** What `klines` pipes its messages through: the history and the breaks filled over HTTP. @internal */
export type KlineHistoryOf = (symbol: string, interval: string, history: number) => OperatorFunction<MarketMessage<KlineRecord>, KlineRecord>;

/**
 * The candle history of `cfg.klineHistory` (`GET /quote/v1/klines`), or `undefined` without one. A failed fetch goes
 * to `errors`; its gap, once per `(symbol, interval)` however many observers share it, to `klineGaps`. @internal
 */
export function klineHistoryOf(
  cfg: Pick<MarketConfig, 'klineHistory' | 'scheduler'>,
  status: Pick<MarketStatusState, 'count'>,
  errors: Subject<Error>,
  klineGaps: Subject<KlineGap>,
): KlineHistoryOf | undefined {
  const { klineHistory, scheduler } = cfg;
  if (klineHistory === undefined) return undefined;
  const klineFetch = klineFetcher({
    fetchPage: restKlinePages(klineHistory.rest),
    pageLimit: KLINE_PAGE_LIMIT,
    scheduler,
    ...(klineHistory.timeoutMs !== undefined && { timeoutMs: klineHistory.timeoutMs }),
    onError: (error) => errors.next(asError(error)),
    onRefetch: () => status.count((c) => ({ klineRefetches: c.klineRefetches + 1 })),
    // a month has no fixed length: only the rows' order is checked
    gridMs: (interval) => (interval.endsWith('M') ? 0 : intervalMs(interval)),
  });
  /** The last gap signalled per `(symbol, interval)`: observers sharing a fetch signal its gap once. */
  const lastKlineGap = new Map<string, string>();
  const onKlineGap = (symbol: string, interval: string, gap: KlineHistoryGap): void => {
    const key = `${symbol}|${interval}`;
    const same = `${gap.reason}|${gap.from}|${gap.to}|${gap.firstLiveTime}|${gap.missing}`;
    if (lastKlineGap.get(key) === same) return;
    lastKlineGap.set(key, same);
    status.count((c) => ({ klineGaps: c.klineGaps + 1 }));
    klineGaps.next({ symbol, interval, ...gap });
  };
  return (symbol, interval, history) =>
    withKlineHistory({
      history,
      intervalMs: intervalMs(interval),
      fetch: (range, kind) => klineFetch(symbol, interval, range, kind),
      onGap: (gap) => onKlineGap(symbol, interval, gap),
    });
}
