import type { StreamKind } from '../streams/streamKind';

/**
 * A `sub` the simulator received, in `observed().subscriptions`.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedSubscription } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test subscribes
 * const binaryDepth: ObservedSubscription[] = sim.observed().subscriptions.filter((s) => s.topic === 'depth' && s.binary);
 * ```
 */
export interface ObservedSubscription {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly symbol: string;
  readonly topic: string;
  readonly binary: boolean;
  readonly id: string;
  readonly at: number;
}

/**
 * A `cancel` / `cancel_all` the simulator received, in `observed().cancels`.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedCancel } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test unsubscribes
 * const cancels: ObservedCancel[] = sim.observed().cancels.filter((c) => c.event === 'cancel' && c.symbol === 'BTCUSDT');
 * ```
 */
export interface ObservedCancel {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly event: string;
  readonly symbol: string;
  readonly topic: string;
  readonly id: string;
  readonly at: number;
}

/**
 * A client ping the simulator received, in `observed().pings`.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedPing } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test keeps its connections alive
 * const publicPings: ObservedPing[] = sim.observed().pings.filter((p) => p.stream === 'public');
 * ```
 */
export interface ObservedPing {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly ts: number;
  readonly at: number;
}

/**
 * A client pong the simulator received, in `observed().pongs`; `matched` when `ts` equals a ping this session
 * was sent.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedPong } from 'ex-streams/simulator';
 * const sim = await startSimulator({ privatePingIntervalMs: 1000 });
 * // ... the client under test answers the private stream's pings
 * const unmatched: ObservedPong[] = sim.observed().pongs.filter((p) => !p.matched);
 * ```
 */
export interface ObservedPong {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly ts: number;
  readonly matched: boolean;
  readonly at: number;
}

/**
 * What the simulator observed from clients, returned by `observed()` (and `GET /__control/observed`).
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedReport } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... run the client under test
 * const seen: ObservedReport = sim.observed();
 * console.log(`${seen.connections.public} public sockets open, ${seen.accepted.public} accepted since start`);
 * ```
 */
export interface ObservedReport {
  readonly subscriptions: readonly ObservedSubscription[];
  readonly cancels: readonly ObservedCancel[];
  readonly pings: readonly ObservedPing[];
  readonly pongs: readonly ObservedPong[];
  /** Connections open now. */
  readonly connections: { readonly public: number; readonly private: number };
  /** Connections accepted since start. */
  readonly accepted: { readonly public: number; readonly private: number };
}
