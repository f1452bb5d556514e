import { config as rxConfig } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import { startSimulator, type FaultCounts, type InjectedFault, type Simulator } from '../../lib/simulator';
import { type Check, resyncCheck, runChecks, type SoakNumbers } from './checks';
import { CLIENT, startConsumer, topicNames, type Observations } from './consumer';
import { startOrders, type OrderStats } from './orders';

/** Options of {@link runSoak}. */
export interface SoakOptions {
  /** Time with faults being injected (ms). */
  readonly chaosMs: number;
  /** Seed of the simulator and of the fault schedule. Default 1. */
  readonly seed?: number;
  /** Mean time between faults (ms). Default 5000. */
  readonly meanFaultIntervalMs?: number;
  /** Time without faults at the end, for everything to resume (ms). Default 6000. */
  readonly recoveryMs?: number;
  /** Pause between two order calls (ms). Default 200. */
  readonly orderPeriodMs?: number;
  /** Record the traffic the simulator receives (for the secrets checks). Default false. */
  readonly recordTraffic?: boolean;
  /** Progress lines. Default: none. */
  readonly log?: (line: string) => void;
  /** Called with the simulator before it closes (to read `traffic()`, `sent()`). */
  readonly inspect?: (sim: Simulator, seen: Observations) => void;
}

/** Everything a soak run measured. */
export interface SoakReport {
  readonly seed: number;
  readonly chaosMs: number;
  readonly recoveryMs: number;
  readonly meanFaultIntervalMs: number;
  readonly symbols: readonly string[];
  readonly faults: readonly InjectedFault[];
  readonly simFaults: FaultCounts;
  readonly numbers: SoakNumbers;
  readonly orders: OrderStats;
  readonly checks: readonly Check[];
  readonly heapStart: number;
  readonly heapEnd: number;
  readonly gcAvailable: boolean;
  /** Everything observed (errors, statuses) for further checks. */
  readonly seen: Observations;
  /** Literal secrets of the run: secret key, listen keys, signatures, 2FA tokens (for the secrets checks). */
  readonly secrets: { readonly secretKey: string; readonly twoFactorTokens: readonly string[] };
}

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const heapAfterGc = (): number => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
};

/**
 * The chaos soak: a simulator on 127.0.0.1 with a seeded fault schedule, a consumer of market topics for
 * three symbols and of the user stream, orders placed all along; then a quiet recovery period, and the
 * checks against what the simulator says it sent. Everything is closed before it returns.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const { chaosMs, seed = 1, meanFaultIntervalMs = 5000, recoveryMs = 6000, orderPeriodMs = 200, recordTraffic = false, log = () => undefined } = options;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown): void => {
    unhandled.push(e);
  };
  const previousRxHandler = rxConfig.onUnhandledError;
  rxConfig.onUnhandledError = onUnhandled;
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  const tokens: string[] = [];
  const sim = await startSimulator({
    symbols: SYMBOLS,
    seed,
    depthLevels: 50,
    twoFactor: true,
    privatePingIntervalMs: 2000,
    balances: { USDT: '10000000', BTC: '10', ETH: '100', SOL: '1000' },
    recordTraffic,
  });
  let stopOrders: () => Promise<void> = () => Promise.resolve();
  try {
    const rest = restClient({
      baseUrl: sim.baseUrl,
      apiKey: sim.apiKey,
      secretKey: sim.secretKey,
      twoFactorToken: () => {
        const token = sim.issueTwoFactorToken();
        tokens.push(token);
        return token;
      },
    });
    const consumer = startConsumer(sim.publicStreamUrl, sim.privateStreamUrl, rest, SYMBOLS);
    const orders = startOrders(rest, SYMBOLS, orderPeriodMs);
    stopOrders = orders.stop;
    await sleep(1500);
    const heapStart = heapAfterGc();
    log(`warm: ${consumer.seen.topicData.size} topics flowing, heap ${(heapStart / 2 ** 20).toFixed(1)} MB; chaos for ${chaosMs} ms`);
    const chaos = sim.startChaos({
      meanIntervalMs: meanFaultIntervalMs,
      maxStallMs: 4000,
      // longer than the client's heartbeat timeout: the client must find the dead socket by itself
      halfOpenMs: CLIENT.heartbeatTimeoutMs + 1500,
      privateChaosWindowMs: 2000,
      reorderWindowMs: 150,
      // The server runs 0–3 s ahead of the client: signed requests stay inside recvWindow (5000) without
      // correction, and a jump back makes event times go backwards (the reorder buffer flags those late).
      skewRangeMs: [0, 3000],
    });
    const progress = setInterval(() => log(`  ${chaos.injected().length} faults, ${consumer.seen.events.length} private events, ${orders.stats.placed} orders`), 10_000);
    await sleep(chaosMs);
    chaos.stop();
    clearInterval(progress);
    log(`chaos stopped after ${chaos.injected().length} faults; recovering for ${recoveryMs} ms`);
    await sleep(Math.max(0, recoveryMs - 1500));
    await orders.stop();
    await sleep(1500); // the last private events leave the reorder buffer; trades in flight arrive
    const numbers = {} as SoakNumbers;
    // The state healed itself: compared with the simulator's books while the consumer is still subscribed.
    const resync = await resyncCheck(consumer.seen, rest, numbers);
    log(`resync check: ${resync.ok ? 'ok' : 'FAIL'}: ${resync.detail}`);
    const sent = sim.sent();
    options.inspect?.(sim, consumer.seen);
    consumer.stop();
    const checks = runChecks(
      {
        seen: consumer.seen,
        sent,
        faults: chaos.injected(),
        topics: topicNames(SYMBOLS),
        unhandled,
        unexpectedOrderErrors: orders.stats.unexpected,
        heartbeatTimeoutMs: CLIENT.heartbeatTimeoutMs,
      },
      numbers,
    ).concat(resync);
    await sleep(200); // the user stream's fire-and-forget DELETE of its listen key
    const heapEnd = heapAfterGc();
    return {
      seed,
      chaosMs,
      recoveryMs,
      meanFaultIntervalMs,
      symbols: SYMBOLS,
      faults: chaos.injected(),
      simFaults: sent.faults,
      numbers,
      orders: orders.stats,
      checks,
      heapStart,
      heapEnd,
      gcAvailable: typeof (globalThis as { gc?: unknown }).gc === 'function',
      seen: consumer.seen,
      secrets: { secretKey: sim.secretKey, twoFactorTokens: tokens },
    };
  } finally {
    await stopOrders();
    await sim.close();
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
    rxConfig.onUnhandledError = previousRxHandler;
  }
}
