import type { SchedulerLike } from 'rxjs';
import type { TradeGap } from '../../operators/distinctTrades';
import type { RedisTarget } from '../redisTarget';
import type { RelayGap } from '../relayGap';

/** Settings of a `RelayReader` (and of the push loop it runs). @internal */
export interface RelayReaderConfig {
  readonly target: RedisTarget;
  readonly prefix: string;
  readonly shards: number;
  readonly blockMs: number;
  readonly count: number;
  /** `push`: entries by the gateway's pushes (a single Redis; see `PushLoop`); `xread`: by blocking `XREAD`. */
  readonly read: 'push' | 'xread';
  /** The push loop's check period, ms. */
  readonly checkMs: number;
  readonly scheduler: SchedulerLike;
  readonly resumeFrom: ReadonlyMap<number, string>;
  readonly onGap: (gap: RelayGap) => void;
  /** Trades of a followed symbol that may be missing (frames of its trade topic lost on the way), as `marketStreams` signals them. */
  readonly onTradeGap: (gap: TradeGap) => void;
  readonly onError: (operation: string, error: unknown) => void;
  /** A read worked (the errors of an episode are over: the next failure is said again). */
  readonly onRecovered: () => void;
}
