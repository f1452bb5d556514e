import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { SubscriptionExtraParams } from '../../codecs/requests';
import { ConfigError } from '../../errors';
import type { MarketStreamsConfig } from '../marketStreamsConfig';
import type { MergedDepthOptions } from '../marketMessage';
import { symbolChecker } from './symbolCheck';

/** A {@link MarketStreamsConfig} checked, with its defaults filled in. @internal */
export interface MarketConfig {
  readonly url: NonNullable<MarketStreamsConfig['url']>;
  readonly connectionOptions: NonNullable<MarketStreamsConfig['connection']>;
  readonly defaultBinary: boolean;
  readonly v2: boolean;
  readonly site: string | undefined;
  readonly resubscribeRatePerSecond: number;
  readonly subscribeBurst: number;
  readonly maxSymbolsPerFrame: number;
  readonly quarantineAfterCloses: number;
  readonly tradeReplaySize: number;
  readonly subscribeTimeoutMs: number;
  readonly staleAfterMs: NonNullable<MarketStreamsConfig['staleAfterMs']>;
  readonly scheduler: SchedulerLike;
  readonly WebSocketCtor: MarketStreamsConfig['WebSocketCtor'];
  readonly tradeBackfill: MarketStreamsConfig['tradeBackfill'];
  readonly klineHistory: MarketStreamsConfig['klineHistory'];
  readonly rest: MarketStreamsConfig['rest'];
  readonly random: () => number;
  /** `undefined` when `symbol` may be subscribed, else the `ConfigError` that says why not. */
  readonly checkSymbol: ReturnType<typeof symbolChecker>;
}

/**
 * The public stream's dialect: `dialect` when given, else `'v2'` for an address ending in `/quote/ws/v2` (HashKey's V2
 * stream), `'v1'` otherwise (a value other than those two is the caller's to refuse). @internal
 */
export function dialectOf(dialect: MarketStreamsConfig['dialect'], url: unknown): MarketStreamsConfig['dialect'] & string {
  return dialect ?? (typeof url === 'string' && /\/quote\/ws\/v2\/?(?:[?#].*)?$/.test(url) ? 'v2' : 'v1');
}

/** `config` checked (a `ConfigError` at once for a bad value), with its defaults. @internal */
export function marketConfig(config: MarketStreamsConfig): MarketConfig {
  const {
    url = config.venue?.publicStreamUrl,
    connection: connectionOptions = {},
    binary: defaultBinary = false,
    resubscribeRatePerSecond = 10,
    subscribeBurst = 10,
    tradeReplaySize = 60,
    subscribeTimeoutMs = 10_000,
    staleAfterMs = {},
    scheduler = asyncScheduler,
    WebSocketCtor,
    tradeBackfill,
    klineHistory,
    rest,
    random = Math.random,
    maxSymbolsPerFrame = 20,
    symbolPattern,
    symbols,
    quarantineAfterCloses = 3,
  } = config;
  if (url === undefined) throw new ConfigError('url', 'or venue is required');
  const dialect = dialectOf(config.dialect, url);
  if (dialect !== 'v1' && dialect !== 'v2') throw new ConfigError('dialect', "must be 'v1' or 'v2'");
  const v2 = dialect === 'v2';
  if (v2 && defaultBinary) throw new ConfigError('binary', 'V2 sends JSON only (binary frames are V1)');
  const site = config.site ?? config.venue?.site;
  positive('resubscribeRatePerSecond', resubscribeRatePerSecond, false);
  positive('subscribeBurst', subscribeBurst, true);
  positive('maxSymbolsPerFrame', maxSymbolsPerFrame, true);
  positive('quarantineAfterCloses', quarantineAfterCloses, true);
  const checkSymbol = symbolChecker(symbolPattern, symbols);
  if (!(subscribeTimeoutMs > 0)) throw new ConfigError('subscribeTimeoutMs', 'must be a positive number (Infinity turns it off)');
  if (tradeBackfill?.timeoutMs !== undefined) positive('tradeBackfill.timeoutMs', tradeBackfill.timeoutMs, false);
  if (klineHistory?.timeoutMs !== undefined) positive('klineHistory.timeoutMs', klineHistory.timeoutMs, false);
  for (const [kind, ms] of Object.entries(staleAfterMs)) {
    if (ms !== undefined && !(ms > 0)) throw new ConfigError(`staleAfterMs.${kind}`, 'must be a positive number (Infinity turns it off)');
  }
  return {
    url,
    connectionOptions,
    defaultBinary,
    v2,
    site,
    resubscribeRatePerSecond,
    subscribeBurst,
    maxSymbolsPerFrame,
    quarantineAfterCloses,
    tradeReplaySize,
    subscribeTimeoutMs,
    staleAfterMs,
    scheduler,
    WebSocketCtor,
    tradeBackfill,
    klineHistory,
    rest,
    random,
    checkSymbol,
  };
}

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, M: 2_592_000_000 };

/** The length of a kline interval (`1m`, `4h`, `1M`…) in ms, 0 when unknown. @internal */
export function intervalMs(interval: string): number {
  const m = /^(\d{1,4})([smhdwM])$/.exec(interval);
  return m === null ? 0 : Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** The `staleAfterMs` of a request topic (see {@link MarketStreamsConfig.staleAfterMs}). @internal */
export function staleAfterOf(topic: string, config: NonNullable<MarketStreamsConfig['staleAfterMs']>): number {
  if (topic === 'trade') return config.trade ?? Infinity;
  if (topic === 'depth' || topic === 'mergedDepth' || topic === 'diffMergedDepth' || topic === 'bbo') return config.depth ?? 30_000;
  if (topic === 'realtimes') return config.realtimes ?? 60_000;
  return config.kline ?? Math.max(60_000, 2 * intervalMs(topic.slice('kline_'.length)));
}

/** The params of a merged book's subscription, or the `ConfigError` that says what is wrong with `options`. @internal */
export function mergedParams(options: MergedDepthOptions | Omit<MergedDepthOptions, 'limit'>, withLimit: boolean): SubscriptionExtraParams | ConfigError {
  const { dumpScale } = options;
  if (!(Number.isInteger(dumpScale) && dumpScale >= 0 && dumpScale <= 18)) return new ConfigError('dumpScale', 'must be an integer from 0 to 18');
  const limit = withLimit ? (options as MergedDepthOptions).limit : undefined;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 200)) return new ConfigError('limit', 'must be an integer from 1 to 200');
  return { ...(limit !== undefined && { limit: String(limit) }), dumpScale: String(dumpScale) };
}

function positive(option: string, value: number, integer: boolean): number {
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new ConfigError(option, integer ? 'must be a positive integer' : 'must be a positive number');
  }
  return value;
}
