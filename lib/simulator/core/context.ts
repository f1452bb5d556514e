import type { SimulatorClock } from './clock';
import type { Faults } from '../chaos/faults';
import type { MarketReplay } from '../market/marketReplay';
import type { SymbolMarket } from '../market/market';
import type { Peers } from '../streams/peers';
import type { Recorder } from '../chaos/recorder';
import type { Timers } from './timers';
import type { PeriodsMs } from './simulatorOptions';

/**
 * State shared by the simulator's parts.
 * @internal
 */
export interface SimContext {
  readonly clock: SimulatorClock;
  readonly timers: Timers;
  /** Clock time plus skew. */
  readonly serverTime: () => number;
  readonly markets: ReadonlyMap<string, SymbolMarket>;
  readonly faults: Faults;
  readonly peers: Peers;
  readonly recorder: Recorder;
  readonly periods: PeriodsMs;
  readonly depthLevels: number;
  /** The container of binary frames: the spec's zip, or the gzip the live service was seen sending. */
  readonly binaryContainer: 'zip' | 'gzip';
  /** The recording the recorded pairs replay (the `recordedMarket` option), when given. */
  readonly replay?: MarketReplay | undefined;
}
