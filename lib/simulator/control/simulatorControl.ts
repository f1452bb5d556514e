import type { ChaosHandle, ChaosOptions, TrafficReport } from '../chaos/chaosTypes';
import type { InjectTradeOptions, LoseAnswersOptions, PrivateChaosOptions, RejectOptions } from './controlOptions';
import type { ObservedReport } from '../chaos/observedReport';
import type { SentReport } from '../chaos/sentReport';
import type { StreamSelector } from '../streams/streamKind';

/**
 * The control surface: fault injection, market control and reports. Every method but `startChaos` and
 * `traffic` is also served as `POST /__control/<name>` with a JSON body (see docs/simulator.md).
 *
 * @example
 * ```ts
 * import { startSimulator, type SimulatorControl } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const restartService = (control: SimulatorControl): void => {
 *   control.drop({ stream: 'all', code: 1012, reason: 'service restart' });
 *   control.rejectNextRequests(1, { status: 503 });
 * };
 * restartService(sim);
 * ```
 */
export interface SimulatorControl {
  /** Abruptly destroys the stream's sockets (no code) or closes them with `code`. */
  drop(options: { readonly stream: StreamSelector; readonly code?: number | undefined; readonly reason?: string | undefined }): void;
  /**
   * Keeps sockets open but sends and answers nothing (including protocol pongs) until `resume()`. Client
   * frames received meanwhile are dropped (`inbound: 'drop'`, default: a peer that loses requests) or held and
   * processed at `resume()` (`inbound: 'hold'`: a paused peer whose TCP buffers fill, as in a real stall).
   */
  stall(options: { readonly stream: StreamSelector; readonly inbound?: 'drop' | 'hold' | undefined }): void;
  /** Ends every stall. */
  resume(): void;
  /**
   * Makes every open socket of the stream half-open for `durationMs`, as a dead NAT or a pulled cable would:
   * nothing is forwarded either way (pushes count as written but are lost; client frames, pings and
   * protocol-level pings are lost), no close is sent. Then the server drops them (no close frame). Sockets
   * opened meanwhile are not affected. Returns the number of sockets it cut.
   */
  halfOpen(options: { readonly stream: StreamSelector; readonly durationMs: number }): number;
  /**
   * Pushes one private event the venue sends beyond the SPEC (a custody, fiat or contract account update, a
   * `contractExecutionReport`, a position update, an element whose `e` is `""`, …) to the account's private
   * streams, like any private event (recorded in `sent()` as kind `other`, subject to duplication and reordering).
   * `event`: the element as an object, or its exact JSON object text; an `E` it lacks is not added. `withNext`:
   * held and pushed first with the next operation's events (in their frame with `batchPrivateEvents`), else now.
   */
  pushPrivateEvent(event: Readonly<Record<string, unknown>> | string, options?: { readonly withNext?: boolean | undefined }): void;
  /** Sends a raw frame (text for a string, binary for bytes) to every socket of the stream. */
  sendRaw(options: { readonly stream: StreamSelector; readonly data: string | Uint8Array }): void;
  /** Duplicates and reorders private events (seeded). */
  privateChaos(options: PrivateChaosOptions): void;
  /** Expires the active listen key now (its streams close with 4001); false when there is none. */
  expireListenKey(): boolean;
  /** Rejects the next `n` HTTP API requests (control routes excepted). */
  rejectNextRequests(n: number, options?: RejectOptions): void;
  /**
   * Loses the answers of the next `n` API requests (of `options.method` / `options.path` when given) after
   * processing them: an order is placed or cancelled, the client is not told. `options.mode` says how: `reset`
   * (default; the connection is reset), `hang` (never answered), `delay` (answered `delayMs` late), `gateway`
   * (502 with an HTML body). Replaces what is queued; `n` 0 clears it. Counted in `sent().faults.lostAnswers`.
   */
  loseNextAnswers(n: number, options?: LoseAnswersOptions): void;
  /** Sets the server-time offset (ms) relative to the clock. */
  skewClock(ms: number): void;
  /** Enables or disables 2FA for the account. */
  setTwoFactor(enabled: boolean): void;
  /** Issues a single-use 2FA token valid 30 s. */
  issueTwoFactorToken(): string;
  /** Records a market trade at `price` (moves the market there; resting orders it crosses fill). */
  injectTrade(options: InjectTradeOptions): void;
  /** Runs the market generator `n` steps now (default 1). */
  step(n?: number): void;
  /** What the simulator observed from clients. */
  observed(): ObservedReport;
  /** What the simulator sent. */
  sent(): SentReport;
  /**
   * Starts a seeded schedule of random faults on the simulator's clock (see `ChaosOptions`). Several
   * schedules may run at once; each has its own `stop()`. Not served over HTTP.
   */
  startChaos(options?: ChaosOptions): ChaosHandle;
  /** What clients sent (empty unless the simulator was started with `recordTraffic: true`). Not served over HTTP. */
  traffic(): TrafficReport;
}
