import type { SimulatorClock } from './clock';
import type { SimulatorControl } from '../control/simulatorControl';

/**
 * A running simulator: addresses, credentials, the control surface and `close()`.
 *
 * @example
 * ```ts
 * import { startSimulator, type Simulator } from 'ex-streams/simulator';
 * const sim: Simulator = await startSimulator({ seed: 2 });
 * console.log(sim.baseUrl, sim.publicStreamUrl, `${sim.privateStreamUrl}/<listenKey>`);
 * console.log(sim.serverTime() - sim.clock.now()); // the skew, 0 until skewClock()
 * await sim.close();
 * ```
 */
export interface Simulator extends SimulatorControl {
  /** HTTP base, e.g. http://127.0.0.1:PORT */
  readonly baseUrl: string;
  /** ws://127.0.0.1:PORT/quote/ws/v1 */
  readonly publicStreamUrl: string;
  /** ws://127.0.0.1:PORT/quote/ws/v2: the V2 public stream (acknowledged requests, one symbol a frame, JSON, 100 ms depth, bbo). */
  readonly publicStreamV2Url: string;
  /** ws://127.0.0.1:PORT/api/v1/ws: the `url` of `userStream` as is (it appends `/{listenKey}` itself). */
  readonly privateStreamUrl: string;
  readonly port: number;
  /** The simulated pairs (the `symbols` option; with `recordedMarket` and no `symbols`, the recorded pairs served). */
  readonly symbols: readonly string[];
  readonly apiKey: string;
  readonly secretKey: string;
  /** The header that must carry the API key (the `apiKeyHeader` option, default 'X-EX-APIKEY'). */
  readonly apiKeyHeader: string;
  /**
   * Token the `/__control/*` routes require (header `X-SIM-CONTROL-TOKEN: <token>` or
   * `Authorization: Bearer <token>`; 401 without it): the `controlToken` option, else a random one when
   * `host` is not loopback; undefined (routes open) on loopback without the option.
   */
  readonly controlToken: string | undefined;
  /** The clock the simulator runs on. */
  readonly clock: SimulatorClock;
  /** Server time: clock time plus the skew. */
  serverTime(): number;
  /**
   * Breaks the sequence of the next `diffMergedDepth` delta sent (of any pair, on any socket): `'skip'` numbers it
   * one too far (as if a delta was lost), `'repeat'` gives it the number of the last. Calls queue up, one per delta.
   */
  breakBookSequence(mode: 'skip' | 'repeat'): void;
  /** The active listen key, if any. */
  activeListenKey(): string | undefined;
  /** Releases every socket and timer. */
  close(): Promise<void>;
}
