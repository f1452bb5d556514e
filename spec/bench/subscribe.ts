/**
 * Issue 27's subscription case: time until 500 topics are live (each delivered its first message), on the socket's
 * first open and again after a forced reconnect (the simulator closes the public socket with 1012), against the
 * simulator on loopback (in this process), with the library's defaults (10 frames at once, then 10 a second; 20
 * symbols a frame): 125 pairs × trade, depth (5 levels), realtimes, kline_1m. Times run from the socket's `open`
 * (status$) to the last topic's first message. Part of `npm run bench` (`--only=subscribe`); alone:
 *
 *   node -r ts-node/register/transpile-only spec/bench/subscribe.ts [--quick] [--unbatched]
 *
 * `--unbatched` adds the case of one topic a frame (`maxSymbolsPerFrame: 1`, the behaviour before issue 27): about
 * 50 s each way, so one round only.
 */
import { filter, firstValueFrom, map, merge, type Observable, take, timeout, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import type { MarketMessage } from '../../lib/market/marketMessage';
import { marketStreams, type MarketStreamsConfig } from '../../lib/market/marketStreams';
import { startSimulator } from '../../lib/simulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { median, now } from './stats';

/** One measured case: the medians over the rounds, in ms, and the frames a round sent. */
export interface SubscribeRow {
  readonly case: string;
  readonly topics: number;
  readonly rounds: number;
  readonly firstOpenMs: number;
  readonly reconnectMs: number;
  /** `sub` frames on one socket. */
  readonly subFrames: number;
}

const PAIRS = 125;
const Ctor = WebSocket as unknown as WebSocketCtor;

async function round(config: Partial<MarketStreamsConfig>): Promise<{ firstOpenMs: number; reconnectMs: number; subFrames: number }> {
  const symbols = Array.from({ length: PAIRS }, (_, i) => `P${i}USDT`);
  const sim = await startSimulator({ symbols, seed: 27, depthLevels: 5 });
  const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: Ctor, connection: { reconnect: { minDelayMs: 50, random: () => 0.5 } }, ...config });
  const topics: Observable<MarketMessage<unknown>>[] = symbols.flatMap((s) => [
    market.tradeMessages(s),
    market.depthMessages(s),
    market.realtimesMessages(s),
    market.klineMessages(s, '1m'),
  ]);
  /** Resolves (with the time) once every topic delivered a message on the socket of `epoch`. */
  const allLive = (epoch: number): Promise<number> =>
    firstValueFrom(
      merge(...topics.map((t$) => t$.pipe(filter((m) => m.epoch >= epoch), take(1)))).pipe(take(topics.length), toArray(), map(now), timeout(120_000)),
    );
  const openedAt = (epoch: number): Promise<number> =>
    firstValueFrom(market.status$.pipe(filter((s) => s.connection.type === 'open' && s.connection.epoch === epoch), map(now)));
  try {
    const kept = topics.map((t$) => t$.subscribe());
    const opened1 = openedAt(1);
    const live1 = await allLive(1);
    const firstOpenMs = live1 - (await opened1);
    const opened2 = openedAt(2);
    const live2 = allLive(2);
    sim.drop({ stream: 'public', code: 1012 });
    const reconnectMs = (await live2) - (await opened2);
    const subFrames = new Set(sim.observed().subscriptions.filter((s) => s.connection === 1).map((s) => s.id)).size;
    for (const s of kept) s.unsubscribe();
    return { firstOpenMs, reconnectMs, subFrames };
  } finally {
    await sim.close();
  }
}

/** The case over `rounds` rounds (a fresh simulator and connection each). */
export async function subscribeBench(rounds: number, log: (line: string) => void = () => undefined, unbatched = false): Promise<SubscribeRow[]> {
  const cases: Array<[string, Partial<MarketStreamsConfig>, number]> = [['marketStreams defaults (20 symbols a frame)', {}, rounds]];
  if (unbatched) cases.push(['one topic a frame (maxSymbolsPerFrame: 1, as before issue 27)', { maxSymbolsPerFrame: 1 }, 1]);
  const rows: SubscribeRow[] = [];
  for (const [name, config, n] of cases) {
    const results: Array<{ firstOpenMs: number; reconnectMs: number; subFrames: number }> = [];
    for (let r = 0; r < n; r++) {
      const result = await round(config);
      log(`  ${name}: round ${r + 1}: ${Math.round(result.firstOpenMs)} ms, reconnect ${Math.round(result.reconnectMs)} ms, ${result.subFrames} sub frames`);
      results.push(result);
    }
    rows.push({
      case: name,
      topics: PAIRS * 4,
      rounds: n,
      firstOpenMs: Math.round(median(results.map((x) => x.firstOpenMs))),
      reconnectMs: Math.round(median(results.map((x) => x.reconnectMs))),
      subFrames: results[0]?.subFrames ?? 0,
    });
  }
  return rows;
}

export function subscribeTable(rows: readonly SubscribeRow[]): string {
  const head = '| case | topics | rounds | first open → all live (ms, median) | reconnect → all live (ms, median) | sub frames |\n|---|---:|---:|---:|---:|---:|';
  return [head, ...rows.map((r) => `| ${r.case} | ${r.topics} | ${r.rounds} | ${r.firstOpenMs} | ${r.reconnectMs} | ${r.subFrames} |`)].join('\n');
}

if (require.main === module) {
  const quick = process.argv.includes('--quick');
  subscribeBench(quick ? 1 : 3, (line) => process.stderr.write(line + '\n'), process.argv.includes('--unbatched')).then(
    (rows) => {
      process.stdout.write(subscribeTable(rows) + '\n');
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
