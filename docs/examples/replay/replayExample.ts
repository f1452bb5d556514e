import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, Subject, takeUntil, VirtualTimeScheduler } from 'rxjs';
import { loadRecording, recordMarket } from '../../../lib/node/index';
import { startSimulator } from '../../../lib/simulator/index';
import { replayMarket } from '../../../lib/testing/index';
import { type Vwap, vwap } from './vwap';

/** What {@link runReplayExample} found. */
export interface ReplayExampleResult {
  readonly live: Vwap;
  readonly replayed: Vwap;
  readonly messages: number;
  readonly files: number;
  /** Recorded time replayed, ms (virtual), and the wall time the replay took. */
  readonly virtualMs: number;
  readonly wallMs: number;
}

/**
 * Records `seconds` of the embedded simulator's BTCUSDT (trades, depth, 1m candles) while a VWAP pipeline runs on
 * the live trades, then replays the recording at full speed in virtual time through the same pipeline.
 */
export async function runReplayExample(options: { readonly seconds: number; readonly print: (line: string) => void; readonly out?: string }): Promise<ReplayExampleResult> {
  const { seconds, print } = options;
  const dir = options.out ?? mkdtempSync(join(tmpdir(), 'ex-streams-replay-'));
  const sim = await startSimulator({ symbols: ['BTCUSDT'] });
  try {
    // 1. Live, recorded: the recorder's market streams are the live ones (one socket, tapped).
    const rec = recordMarket({ url: sim.publicStreamUrl, symbols: ['BTCUSDT'], topics: ['trade', 'depth', 'kline_1m'], out: dir });
    const stop$ = new Subject<void>();
    const live = lastValueFrom(rec.market.trades('BTCUSDT').pipe(takeUntil(stop$), vwap()));
    print(`recording ${seconds} s of BTCUSDT (trade, depth, kline_1m) into ${dir} …`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    stop$.next();
    await rec.stop();
    const progress = await lastValueFrom(rec.progress$); // the final count (replayed after the end)

    // 2. Replayed: the same pipeline, in virtual time, as fast as it goes.
    const recording = await loadRecording(dir);
    const scheduler = new VirtualTimeScheduler(undefined, Infinity);
    const replay = replayMarket(recording, { scheduler });
    const replayed = lastValueFrom(replay.trades('BTCUSDT').pipe(vwap()));
    const wallStart = performance.now();
    scheduler.flush();
    const wallMs = performance.now() - wallStart;
    const result: ReplayExampleResult = {
      live: await live,
      replayed: await replayed,
      messages: progress.messages,
      files: progress.files,
      virtualMs: scheduler.now(),
      wallMs,
    };
    print(`recorded ${result.messages} messages in ${result.files} file(s)`);
    print(`live     VWAP over ${result.live.trades} trades: ${result.live.vwap}`);
    print(`replayed VWAP over ${result.replayed.trades} trades: ${result.replayed.vwap} (${(result.virtualMs / 1000).toFixed(1)} s of recording in ${result.wallMs.toFixed(0)} ms)`);
    print(result.live.trades === result.replayed.trades && result.live.vwap === result.replayed.vwap ? 'same result: yes' : 'same result: NO');
    return result;
  } finally {
    await sim.close();
    if (options.out === undefined) rmSync(dir, { recursive: true, force: true });
  }
}
