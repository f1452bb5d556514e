/**
 * The public API's cost on real-shaped frames, socket-free: `marketStreams(...).trades()`, `kline()`, `depth()`,
 * `depth().pipe(orderBook())`, the V2 stream's `depth()` and `bbo()` and `userStream(...).executionReports$`, each over a `ws`-like stand-in socket
 * (injected with `WebSocketCtor`) whose `'message'` listener the benchmark calls with pre-received `Buffer`s,
 * alternating, round by round in the same process, with the floor: `JSON.parse(buffer.toString())` of the
 * same bytes. Frames: `realFrames.ts`. Reported: the medians of CPU ns per frame and of the per-round ratio
 * floor / library. Part of `npm run bench` (`--only=api`); alone:
 *
 *   node --expose-gc -r ts-node/register/transpile-only spec/bench/publicApi.ts [--quick] [--case=trades]
 *     [--reorder=nohold|nodedupe|neither]  (the user stream with a guarantee left out, to measure what it costs)
 *
 * The user stream runs on a `VirtualTimeScheduler` whose clock the benchmark advances 1 ms per 16 events
 * (16 000 events/s), firing the reorder buffer's (default 250 ms) hold on the way; a round ends with the
 * clock moved past the last hold, every event delivered. The market streams use their default scheduler.
 */
import { type Observable, of, type Subscription, VirtualTimeScheduler } from 'rxjs';
import { marketStreams } from '../../lib/market/marketStreams';
import { orderBook } from '../../lib/operators/orderBook';
import { userStream } from '../../lib/user/userStream';
import { REAL_SYMBOL, type RealShape, realFrame } from './realFrames';
import { gcFunction, median } from './stats';
import { type FrameListener, standInSockets } from './standInSocket';

/** One public-API case: a name, its shape, the target ratio of issue 15, and how to open it. */
interface ApiCase {
  readonly name: string;
  readonly shape: RealShape;
  readonly target: number;
  /** Frames per round (about a fifth of a second of `JSON.parse`). */
  readonly frames: number;
  readonly open: () => Promise<ApiRun>;
}

/** An opened case. */
interface ApiRun {
  /** The frames of one round: numbers `first`, `first + 1`, … (made before the round, not timed). */
  readonly frames: (first: number, count: number) => Buffer[];
  /** Hands the `i`-th frame of the round to the library. */
  readonly deliver: (frame: Buffer, i: number) => void;
  /** Run after a round's last frame, inside the timed span (the user stream: the held events leave). */
  readonly drain: () => void;
  /** Values the subscriber got so far. */
  readonly delivered: () => number;
  readonly close: () => void;
}

/** A result row. */
export interface ApiRow {
  readonly case: string;
  readonly bytes: number;
  readonly floorNs: number;
  readonly libraryNs: number;
  readonly ratio: number;
  readonly target: number;
}

const settle = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** The V1 stream's address (`marketCase`'s default) and the V2 stream's (`/quote/ws/v2`: `marketStreams` speaks V2). */
const V1_URL = 'ws://127.0.0.1:1/quote/ws/v1';
const V2_URL = 'ws://127.0.0.1:1/quote/ws/v2';

function marketCase(
  name: string,
  shape: Exclude<RealShape, 'executionReport' | 'executionReportDivided'>,
  target: number,
  frames: number,
  pick: (m: ReturnType<typeof marketStreams>) => Observable<unknown>,
  url = V1_URL,
): ApiCase {
  return {
    name,
    shape,
    target,
    frames,
    open: async () => {
      const sockets = standInSockets();
      const market = marketStreams({ url, WebSocketCtor: sockets.Ctor });
      let count = 0;
      const subscription: Subscription = pick(market).subscribe(() => count++);
      await settle();
      const listener: FrameListener = sockets.listener();
      return {
        frames: (first, n) => Array.from({ length: n }, (_, i) => realFrame(shape, first + i)),
        deliver: (frame) => listener(frame, false),
        drain: () => undefined,
        delivered: () => count,
        close: () => subscription.unsubscribe(),
      };
    },
  };
}

/**
 * The user stream's `reorder` options: the default, or with a guarantee left out to measure what it costs
 * (`--reorder=nohold`: no hold by `E`; `nodedupe`: no de-duplication; `neither`). Not part of `npm run bench`.
 */
function reorderAblation(): { maxDelayMs?: number; dedupeKey?: undefined } {
  const which = process.argv.find((a) => a.startsWith('--reorder='))?.slice('--reorder='.length);
  if (which === 'nohold') return { maxDelayMs: 0 };
  if (which === 'nodedupe') return { dedupeKey: undefined };
  if (which === 'neither') return { maxDelayMs: 0, dedupeKey: undefined };
  return {};
}

/** Events per millisecond of the user stream's virtual clock. */
const EVENTS_PER_MS = 16;

/**
 * A user-stream case: `pick` chooses the output (`executionReports$` behind the default 250 ms hold, or
 * `orders$`, folded on arrival), with issue 26's target; `shape`, the fills (of an order at its price, or
 * whose average is an 18-digit quotient).
 */
const userCase = (
  name: string,
  target: number,
  pick: (u: ReturnType<typeof userStream>) => Observable<unknown>,
  shape: 'executionReport' | 'executionReportDivided' = 'executionReport',
): ApiCase => ({
  name,
  shape,
  target,
  frames: 60_000,
  open: async () => {
    const scheduler = new VirtualTimeScheduler();
    let clock = 1_731_300_000_000;
    const advance = (to: number): void => {
      clock = to;
      scheduler.frame = to;
      scheduler.maxFrames = to;
      scheduler.flush();
      scheduler.frame = to;
    };
    advance(clock);
    const sockets = standInSockets();
    const user = userStream({ url: 'ws://127.0.0.1:1/api/v1/ws', listenKey$: of('benchkey'), WebSocketCtor: sockets.Ctor, scheduler, reorder: reorderAblation() });
    let count = 0;
    const subscription = pick(user).subscribe(() => count++);
    for (let i = 0; i < 3; i++) {
      advance(clock); // anything the stream scheduled at 0 ms
      await settle();
    }
    const listener = sockets.listener();
    return {
      // The round starts at `clock`; the i-th event arrives at clock + floor(i / EVENTS_PER_MS) and carries that `E`.
      frames: (first, n) => Array.from({ length: n }, (_, i) => realFrame(shape, first + i, clock + Math.floor(i / EVENTS_PER_MS))),
      deliver: (frame, i) => {
        listener(frame, false);
        if (i % EVENTS_PER_MS === EVENTS_PER_MS - 1) advance(clock + 1);
      },
      drain: () => advance(clock + 1_000),
      delivered: () => count,
      close: () => subscription.unsubscribe(),
    };
  },
});

/** The cases, with issue 15's targets (issue 26's for the user stream, issue 41's for V2). */
export const API_CASES: readonly ApiCase[] = [
  marketCase('marketStreams(...).trades()', 'trade', 0.8, 100_000, (m) => m.trades(REAL_SYMBOL)),
  marketCase('marketStreams(...).klines()', 'kline', 0.85, 80_000, (m) => m.klines(REAL_SYMBOL, '1m')),
  marketCase('marketStreams(...).depth() (200×2 levels)', 'depth', 0.9, 2_500, (m) => m.depth(REAL_SYMBOL)),
  marketCase('depth().pipe(orderBook())', 'depth', 0.7, 2_500, (m) => m.depth(REAL_SYMBOL).pipe(orderBook())),
  // issue 41: the V2 stream (one record a message, `data` an object; parsed, then read into V1's shapes)
  marketCase('V2 marketStreams(...).depth() (200×2 levels)', 'depthV2', 1.0, 2_500, (m) => m.depth(REAL_SYMBOL), V2_URL),
  marketCase('V2 marketStreams(...).bbo()', 'bbo', 1.0, 100_000, (m) => m.bbo(REAL_SYMBOL), V2_URL),
  userCase('userStream(...).executionReports$', 0.5, (u) => u.executionReports$),
  userCase('userStream(...).orders$', 0.7, (u) => u.orders$),
  userCase('userStream(...).orders$, each average an 18-digit quotient', 0.7, (u) => u.orders$, 'executionReportDivided'),
];

/**
 * CPU time of `fn` (this process, user + system) in ns per frame. CPU time, not wall time: on a shared machine
 * the time this process waits for a core would otherwise land on whichever side it happened to.
 */
export function timed(frames: number, fn: () => void): number {
  const t0 = process.cpuUsage();
  fn();
  const { user, system } = process.cpuUsage(t0);
  return ((user + system) * 1000) / frames;
}

/**
 * Runs every case: one warm-up round, then `rounds` rounds, each timing the floor and the library on the same
 * fresh frames (in alternating order). Throws when the library did not deliver every frame's value.
 */
export async function publicApi(
  rounds: number,
  log: (line: string) => void = () => undefined,
  scale = 1,
  cases: readonly ApiCase[] = API_CASES,
): Promise<ApiRow[]> {
  const gc = gcFunction();
  const rows: ApiRow[] = [];
  for (const c of cases) {
    log(`public API: ${c.name}`);
    const run = await c.open();
    const count = Math.max(1, Math.round(c.frames * scale));
    const floors: number[] = [];
    const ours: number[] = [];
    const ratios: number[] = [];
    let next = 0;
    let sink = 0;
    let bytes = 0;
    try {
      for (let round = -1; round < rounds; round++) {
        const frames = run.frames(next, count);
        next += count;
        bytes = frames[0]!.length;
        const before = run.delivered();
        gc?.();
        const floor = (): number =>
          timed(count, () => {
            for (let i = 0; i < count; i++) if (JSON.parse(frames[i]!.toString()) !== null) sink++;
          });
        const library = (): number =>
          timed(count, () => {
            for (let i = 0; i < count; i++) run.deliver(frames[i]!, i);
            run.drain();
          });
        let f: number;
        let l: number;
        if (round % 2 === 0) {
          f = floor();
          gc?.();
          l = library();
        } else {
          l = library();
          gc?.();
          f = floor();
        }
        const got = run.delivered() - before;
        if (got !== count) throw new Error(`${c.name}: ${got} values for ${count} frames`);
        if (round < 0) continue; // warm-up
        floors.push(f);
        ours.push(l);
        ratios.push(f / l);
      }
    } finally {
      run.close();
    }
    if (sink === 0) throw new Error(`${c.name}: the floor parsed nothing`);
    rows.push({ case: c.name, bytes, floorNs: Math.round(median(floors)), libraryNs: Math.round(median(ours)), ratio: median(ratios), target: c.target });
  }
  return rows;
}

/** The markdown table of {@link publicApi}'s rows. */
export function publicApiTable(rows: readonly ApiRow[]): string {
  const pct = (x: number): string => `${Math.round(x * 1000) / 10} %`;
  const head = '| case (frame bytes) | JSON.parse ns/frame (floor) | library ns/frame | floor / library (median) | target |\n|---|---:|---:|---:|---:|';
  return [head, ...rows.map((r) => `| ${r.case} (${r.bytes}) | ${r.floorNs} | ${r.libraryNs} | ${pct(r.ratio)} | ${pct(r.target)} |`)].join('\n');
}

if (require.main === module) {
  const quick = process.argv.includes('--quick');
  const only = process.argv.find((a) => a.startsWith('--case='))?.slice('--case='.length);
  const cases = only === undefined ? API_CASES : API_CASES.filter((c) => c.name.includes(only));
  publicApi(quick ? 3 : 7, (line) => void process.stderr.write(line + '\n'), quick ? 0.5 : 1, cases).then(
    (rows) => {
      process.stdout.write(publicApiTable(rows) + '\n');
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
      process.exit(1);
    },
  );
}
