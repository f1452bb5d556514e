/**
 * Issue 41's incremental book, socket-free (`--only=incremental`): what one `diffMergedDepth` delta (four changed
 * levels, `realFrames.ts`' `diffMergedDepthFrame`) costs through `marketStreams(...).diffMergedDepth(...)
 * .pipe(incrementalBook())` against one full 200-level book through `depth().pipe(orderBook())` (the public-API
 * table's case), each fed pre-received `Buffer`s through a stand-in socket (`standInSocket.ts`), in CPU time of the
 * process, alternated round by round in the same process as `publicApi.ts` times a case and its floor. Reported:
 * the medians of CPU ns per frame and of the per-round ratio delta / full book (target ≤ 0.1), and the deltas' cost
 * against the full book's measured alone first (before any delta reached the process: where deltas were decoded
 * first, the full book's path then ran at 2.5-3x its cost, and the alternated ratio flattered the delta). Alone:
 *
 *   node --expose-gc -r ts-node/register/transpile-only spec/bench/incremental.ts [--quick]
 */
import type { Subscription } from 'rxjs';
import { marketStreams } from '../../lib/market/marketStreams';
import { incrementalBook } from '../../lib/operators/incrementalBook';
import { orderBook } from '../../lib/operators/orderBook';
import { timed } from './publicApi';
import { diffMergedDepthFrame, REAL_SYMBOL, realFrame } from './realFrames';
import { gcFunction, median } from './stats';
import { standInSockets } from './standInSocket';

/** A result row. */
export interface IncrementalRow {
  readonly case: string;
  /** Bytes of a full book's frame and of a delta's. */
  readonly fullBytes: number;
  readonly deltaBytes: number;
  /** The full book in the rounds alternated with the deltas, and alone (before any delta reached the process). */
  readonly fullNs: number;
  readonly fullAloneNs: number;
  readonly deltaNs: number;
  /** Median of the rounds' delta / full book (alternated). */
  readonly ratio: number;
  /** The deltas' median / the full book's median alone. */
  readonly ratioAlone: number;
  readonly target: number;
}

const settle = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** An opened feed: hands frames to the library, counts the books the subscriber got. */
interface Feed {
  readonly deliver: (frame: Buffer) => void;
  readonly books: () => number;
  readonly close: () => void;
}

async function openFeed(kind: 'full' | 'incremental'): Promise<Feed> {
  const sockets = standInSockets();
  const market = marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v1', WebSocketCtor: sockets.Ctor });
  let books = 0;
  const book$ = kind === 'full' ? market.depth(REAL_SYMBOL).pipe(orderBook()) : market.diffMergedDepth(REAL_SYMBOL, { dumpScale: 2 }).pipe(incrementalBook());
  const subscription: Subscription = book$.subscribe(() => books++);
  await settle();
  const listener = sockets.listener();
  return { deliver: (frame) => listener(frame, false), books: () => books, close: () => subscription.unsubscribe() };
}

/**
 * One warm-up round, then `rounds` rounds, each timing `fullCount` full books and `deltaCount` deltas (in alternating
 * order) on fresh frames. Throws when a book is missing (a delta's sequence broke, or a frame was refused).
 */
export async function incrementalBench(rounds: number, log: (line: string) => void = () => undefined, scale = 1): Promise<IncrementalRow[]> {
  const gc = gcFunction();
  const fullCount = Math.max(1, Math.round(2_500 * scale));
  const deltaCount = Math.max(1, Math.round(50_000 * scale));
  log('incremental book: a diffMergedDepth delta through incrementalBook() vs a full 200-level book through orderBook()');
  const full = await openFeed('full');
  const delta = await openFeed('incremental');
  if (full.books() !== 0) throw new Error('incremental book: a book before any frame');
  const fulls: number[] = [];
  const deltas: number[] = [];
  const ratios: number[] = [];
  let fullBytes = 0;
  let deltaBytes = 0;
  const alone: number[] = [];
  let nextFull = 0;
  try {
    // The full book first alone, before any diffMergedDepth frame reached the process: in a process whose first
    // frames were deltas, the full book's path (shared code) then ran at 2.5-3x its cost, which flattered the ratio.
    for (let round = -1; round < rounds; round++) {
      const fullFrames = Array.from({ length: fullCount }, (_, i) => realFrame('depth', nextFull + i));
      nextFull += fullCount;
      gc?.();
      const f = timed(fullCount, () => {
        for (let i = 0; i < fullCount; i++) full.deliver(fullFrames[i]!);
      });
      if (round >= 0) alone.push(f);
    }
    delta.deliver(diffMergedDepthFrame(0)); // the snapshot (o 0), not timed
    if (delta.books() !== 1) throw new Error('incremental book: the snapshot gave no book');
    let nextDelta = 1;
    for (let round = -1; round < rounds; round++) {
      const fullFrames = Array.from({ length: fullCount }, (_, i) => realFrame('depth', nextFull + i));
      const deltaFrames = Array.from({ length: deltaCount }, (_, i) => diffMergedDepthFrame(nextDelta + i));
      nextFull += fullCount;
      nextDelta += deltaCount;
      fullBytes = fullFrames[0]!.length;
      deltaBytes = deltaFrames[0]!.length;
      const fullBefore = full.books();
      const deltaBefore = delta.books();
      const timeFull = (): number =>
        timed(fullCount, () => {
          for (let i = 0; i < fullCount; i++) full.deliver(fullFrames[i]!);
        });
      const timeDelta = (): number =>
        timed(deltaCount, () => {
          for (let i = 0; i < deltaCount; i++) delta.deliver(deltaFrames[i]!);
        });
      gc?.();
      let f: number;
      let d: number;
      if (round % 2 === 0) {
        f = timeFull();
        gc?.();
        d = timeDelta();
      } else {
        d = timeDelta();
        gc?.();
        f = timeFull();
      }
      if (full.books() - fullBefore !== fullCount) throw new Error(`incremental book: ${full.books() - fullBefore} full books for ${fullCount} frames`);
      if (delta.books() - deltaBefore !== deltaCount) throw new Error(`incremental book: ${delta.books() - deltaBefore} books for ${deltaCount} deltas`);
      if (round < 0) continue; // warm-up
      fulls.push(f);
      deltas.push(d);
      ratios.push(d / f);
      log(`  round ${round + 1}: full book ${Math.round(f)} ns, delta ${Math.round(d)} ns, ratio ${(d / f).toFixed(4)}`);
    }
  } finally {
    full.close();
    delta.close();
  }
  return [
    {
      case: 'diffMergedDepth(...).pipe(incrementalBook()), 4 changed levels, vs depth().pipe(orderBook())',
      fullBytes,
      deltaBytes,
      fullNs: Math.round(median(fulls)),
      fullAloneNs: Math.round(median(alone)),
      deltaNs: Math.round(median(deltas)),
      ratio: median(ratios),
      ratioAlone: median(deltas) / median(alone),
      target: 0.1,
    },
  ];
}

/** The markdown table of {@link incrementalBench}'s rows. */
export function incrementalTable(rows: readonly IncrementalRow[]): string {
  const pct = (x: number): string => `${Math.round(x * 1000) / 10} %`;
  const head =
    '| case (frame bytes: full book / delta) | full book ns/frame (alone) | full book ns/frame (alternated) | delta ns/frame | delta / full book alone | delta / full book alternated (median) | target |\n|---|---:|---:|---:|---:|---:|---:|';
  return [
    head,
    ...rows.map((r) => `| ${r.case} (${r.fullBytes} / ${r.deltaBytes}) | ${r.fullAloneNs} | ${r.fullNs} | ${r.deltaNs} | ${pct(r.ratioAlone)} | ${pct(r.ratio)} | ≤ ${pct(r.target)} |`),
  ].join('\n');
}

if (require.main === module) {
  const quick = process.argv.includes('--quick');
  incrementalBench(quick ? 3 : 7, (line) => void process.stderr.write(line + '\n'), quick ? 0.5 : 1).then(
    (rows) => {
      process.stdout.write(incrementalTable(rows) + '\n');
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
      process.exit(1);
    },
  );
}
