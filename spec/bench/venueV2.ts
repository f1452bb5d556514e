/**
 * Issue 41's whole venue over V2 (`--only=venue`): a venue process (this file forked with `--role=venue`) serves the
 * V2 public stream (`/quote/ws/v2`: each `sub` answered with itself and `code` `"0"`, one symbol a request) for 300
 * pairs, pushing each subscribed pair's 200-level `depth` every 100 ms (pre-built real-shaped V2 frames,
 * `realFrames.ts`' `v2DepthText`, a fresh `t` each push; the pairs' pushes spread evenly over the period: 3 000 books
 * a second). The client, in this process, is `marketStreams({ url: …/quote/ws/v2 })` with `depth(symbol)` subscribed
 * for every pair; its CPU (`process.cpuUsage`, user + system) over windows of wall time is its share of one core
 * (target < 25 %). Then, in the same run, a bare client (one `ws` socket, a V2 `sub` per pair, `JSON.parse` of each
 * frame, nothing checked) over the same windows: the machine's floor for these books. The venue's own share over
 * the same windows is reported beside each. Alone:
 *
 *   node --expose-gc -r ts-node/register/transpile-only spec/bench/venueV2.ts [--quick] [--pairs=300] [--rounds=3] [--seconds=10]
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Subscription } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import { marketStreams } from '../../lib/market/marketStreams';
import { v2DepthText } from './realFrames';
import { median, sleep, until } from './stats';

/** The push period of V2 `depth`, ms. */
const PERIOD_MS = 100;
/** Slots of a period: every 10 ms a tenth of the pairs push. */
const SLOTS = 10;
/** Pre-built frames per pair (a pair's pushes cycle through them, each with a fresh `t`). */
const VARIANTS = 4;

const symbolOf = (i: number): string => `P${i}USDT`;

/** A result row. */
export interface VenueRow {
  readonly case: string;
  readonly pairs: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly bytes: number;
  readonly booksPerSec: number;
  /** The client's CPU, share of one core: median, lowest, highest of the rounds. */
  readonly clientShare: readonly [number, number, number];
  readonly usPerBook: number;
  readonly venueShare: number;
  readonly target: number;
  readonly loads: readonly string[];
}

const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

// ---------------------------------------------------------------------------------------------------------------
// The venue process

function venueChild(pairs: number): void {
  const index = new Map<string, number>(Array.from({ length: pairs }, (_, i) => [symbolOf(i), i]));
  // each frame split at its `t`: prefix + time + suffix
  const frames = Array.from({ length: pairs }, (_, i) => Array.from({ length: VARIANTS }, (_, v) => v2DepthText(symbolOf(i), i * VARIANTS + v, '@T@').split('@T@') as [string, string]));
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  let c0 = 0;
  let t0 = 0;
  server.on('connection', (ws) => {
    const subscribed: boolean[] = new Array<boolean>(pairs).fill(false);
    const pushes: number[] = new Array<number>(pairs).fill(0);
    const push = (i: number): void => {
      const n = pushes[i]!;
      pushes[i] = n + 1;
      const [prefix, suffix] = frames[i]![n % VARIANTS]!;
      ws.send(prefix + Date.now() + suffix);
    };
    ws.on('error', () => undefined);
    ws.on('message', (data: Buffer) => {
      let m: { ping?: unknown; topic?: unknown; event?: unknown; params?: { symbol?: unknown } };
      try {
        m = JSON.parse(data.toString()) as typeof m;
      } catch {
        return;
      }
      if (m.ping !== undefined) return ws.send(JSON.stringify({ pong: Date.now() }));
      const symbol = m.params?.symbol;
      const i = typeof symbol === 'string' ? index.get(symbol) : undefined;
      if (m.topic !== 'depth' || (m.event !== 'sub' && m.event !== 'cancel') || i === undefined) {
        return ws.send(JSON.stringify({ ...m, code: '-100011', msg: 'Parameter error!' }));
      }
      ws.send(JSON.stringify({ ...m, code: '0', msg: 'Success' }));
      subscribed[i] = m.event === 'sub';
      if (m.event === 'sub') push(i);
    });
    // Every 10 ms the slots due since the last tick: pair i pushes in slot i % 10, once a period, whatever the timer's lateness.
    const start = performance.now();
    let done = 0;
    const timer = setInterval(() => {
      const due = Math.floor((performance.now() - start) / (PERIOD_MS / SLOTS));
      const socket = (ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
      socket.cork();
      for (; done < due; done++) {
        for (let i = done % SLOTS; i < pairs; i += SLOTS) if (subscribed[i]) push(i);
      }
      socket.uncork();
    }, PERIOD_MS / SLOTS);
    ws.on('close', () => clearInterval(timer));
  });
  server.on('listening', () => {
    const { port } = server.address() as { port: number };
    process.send?.({ type: 'ready', url: `ws://127.0.0.1:${port}/quote/ws/v2`, bytes: Buffer.byteLength(frames[0]![0].join(String(Date.now()))) });
  });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'begin') {
      c0 = cpuUs();
      t0 = performance.now();
    }
    if (m.type === 'end') process.send?.({ type: 'report', cpuUs: cpuUs() - c0, wallMs: performance.now() - t0 });
    if (m.type === 'clients') process.send?.({ type: 'clients', open: server.clients.size });
    if (m.type === 'exit') {
      for (const c of server.clients) c.terminate();
      server.close(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------------------------
// The client (this process)

export interface VenueOptions {
  readonly pairs: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

/** The whole case: the venue forked, the client subscribed to every pair's depth, `rounds` windows of `seconds`. */
export async function venueV2Bench(options: VenueOptions, log: (line: string) => void = () => undefined): Promise<VenueRow[]> {
  const { pairs } = options;
  const child = fork(__filename, ['--role=venue', `--pairs=${pairs}`], { execArgv: ['-r', 'ts-node/register/transpile-only'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiters: Array<(m: Record<string, unknown>) => void> = [];
  child.on('message', (m: Record<string, unknown>) => waiters.shift()?.(m));
  const next = (): Promise<Record<string, unknown>> => new Promise((resolve) => waiters.push(resolve));
  const request = (type: string): Promise<Record<string, unknown>> => {
    const reply = next();
    child.send({ type });
    return reply;
  };
  const ready = await next();
  const url = String(ready['url']);
  const bytes = Number(ready['bytes']);
  log(`venue (V2): ${pairs} pairs, depth every ${PERIOD_MS} ms (${bytes} bytes a frame) at ${url}`);
  const rows: VenueRow[] = [];
  try {
    rows.push(await libraryClient(url, bytes, options, { request, send: (type) => child.send({ type }) }, log));
    rows.push(await bareClient(url, bytes, options, { request, send: (type) => child.send({ type }) }, log));
  } finally {
    child.send({ type: 'exit' });
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  }
  return rows;
}

/** The venue process, as the clients' windows use it: `begin` / `end` of its CPU count. */
interface Venue {
  readonly request: (type: string) => Promise<Record<string, unknown>>;
  readonly send: (type: string) => void;
}

/** `rounds` windows of `seconds` of the client in this process, counting the books `books()` says it got. */
async function windows(name: string, bytes: number, options: VenueOptions, venue: Venue, books: () => number, log: (line: string) => void): Promise<VenueRow> {
  const { pairs, rounds, seconds, warmupSeconds } = options;
  const shares: number[] = [];
  const rates: number[] = [];
  const perBook: number[] = [];
  const venueShares: number[] = [];
  const loads: string[] = [];
  log(`  ${name}: every pair live; warm-up ${warmupSeconds} s`);
  await sleep(warmupSeconds * 1000);
  for (let r = 0; r < rounds; r++) {
    const loadAt = load();
    venue.send('begin');
    const b0 = books();
    const c0 = cpuUs();
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const cpu = cpuUs() - c0;
    const wallMs = performance.now() - t0;
    const got = books() - b0;
    const report = await venue.request('end');
    const share = cpu / 1000 / wallMs;
    shares.push(share);
    rates.push((got / wallMs) * 1000);
    perBook.push(cpu / got);
    venueShares.push(Number(report['cpuUs']) / 1000 / Number(report['wallMs']));
    loads.push(loadAt);
    log(
      `  round ${r + 1}: load ${loadAt}; ${Math.round((got / wallMs) * 1000)} books/s; client ${(share * 100).toFixed(1)} % of a core ` +
        `(${(cpu / got).toFixed(1)} µs/book); venue ${((venueShares[r] ?? 0) * 100).toFixed(1)} %`,
    );
  }
  return {
    case: name,
    pairs,
    rounds,
    seconds,
    bytes,
    booksPerSec: Math.round(median(rates)),
    clientShare: [median(shares), Math.min(...shares), Math.max(...shares)],
    usPerBook: Math.round(median(perBook) * 10) / 10,
    venueShare: median(venueShares),
    target: name.startsWith('marketStreams') ? 0.25 : NaN,
    loads,
  };
}

/** The library's client: `marketStreams` over V2, `depth(symbol)` for every pair. */
async function libraryClient(url: string, bytes: number, options: VenueOptions, venue: Venue, log: (line: string) => void): Promise<VenueRow> {
  const { pairs } = options;
  // The subscriptions paced as the fan-out case's (the default, 10 a second, would take 30 s for 300 pairs).
  const market = marketStreams({ url, WebSocketCtor: WebSocket as never, resubscribeRatePerSecond: 200, subscribeBurst: 100 });
  const errors: Error[] = [];
  const subscriptions: Subscription[] = [market.errors$.subscribe((e) => errors.push(e))];
  const seen = new Set<string>();
  let books = 0;
  for (let i = 0; i < pairs; i++) {
    const symbol = symbolOf(i);
    subscriptions.push(
      market.depth(symbol).subscribe((record) => {
        books++;
        if (seen.size < pairs && record.b.length > 0) seen.add(symbol);
      }),
    );
  }
  try {
    await until(() => seen.size === pairs, 60_000, `every pair's first book`);
    const row = await windows('marketStreams (V2) depth(symbol) for every pair', bytes, options, venue, () => books, log);
    if (errors.length > 0) throw new Error(`venue (V2): ${errors.length} errors on the client, the first: ${errors[0]!.message}`);
    return row;
  } finally {
    // the last unsubscription closes the socket: the venue stops pushing to it
    for (const s of subscriptions) s.unsubscribe();
  }
}

/** The bare client of the same run: one `ws` socket, a V2 `sub` per pair, `JSON.parse` of every frame, nothing checked. */
async function bareClient(url: string, bytes: number, options: VenueOptions, venue: Venue, log: (line: string) => void): Promise<VenueRow> {
  const { pairs } = options;
  // the library's socket closed first (its last unsubscription): nothing else pushed to this process meanwhile
  for (let waited = 0; Number((await venue.request('clients'))['open']) > 0; waited += 100) {
    if (waited > 10_000) throw new Error('venue (V2): the library client did not close its socket');
    await sleep(100);
  }
  const socket = new WebSocket(url, { perMessageDeflate: false });
  let books = 0;
  const seen = new Set<string>();
  socket.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as { data?: { s?: string }; params?: { symbol?: string } };
    if (m.data === undefined) return;
    books++;
    if (seen.size < pairs && m.params?.symbol !== undefined) seen.add(m.params.symbol);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    for (let i = 0; i < pairs; i++) socket.send(JSON.stringify({ topic: 'depth', event: 'sub', params: { symbol: symbolOf(i) } }));
    await until(() => seen.size === pairs, 60_000, `every pair's first book (bare client)`);
    return await windows('bare client: ws + JSON.parse, the same books', bytes, options, venue, () => books, log);
  } finally {
    socket.terminate();
  }
}

/** The markdown table of {@link venueV2Bench}'s rows. */
export function venueTable(rows: readonly VenueRow[]): string {
  const pct = (x: number): string => `${(Math.round(x * 1000) / 10).toFixed(1)} %`;
  const head =
    '| case (frame bytes) | pairs | books/s (median) | client CPU, share of one core (median) | range | µs/book | venue process | target |\n|---|---:|---:|---:|---:|---:|---:|---:|';
  const body = rows.map(
    (r) =>
      `| ${r.case} (${r.bytes}) | ${r.pairs} | ${r.booksPerSec.toLocaleString('en')} | ${pct(r.clientShare[0])} | ${pct(r.clientShare[1])} - ${pct(r.clientShare[2])} | ${r.usPerBook} | ${pct(r.venueShare)} | ${Number.isNaN(r.target) ? '—' : `< ${pct(r.target)}`} |`,
  );
  const [library, bare] = rows;
  const ratio =
    library !== undefined && bare !== undefined ? [`Library / bare client, CPU per book: ${(library.usPerBook / bare.usPerBook).toFixed(2)}x (${library.usPerBook} µs against ${bare.usPerBook} µs).`] : [];
  const loads = rows.map((r) => `${r.rounds} windows of ${r.seconds} s, load averages ${r.loads.join(' / ')}`).join('; ');
  return [head, ...body, '', ...ratio, `Venue: a process of its own on loopback, 200-level V2 depth every ${PERIOD_MS} ms per pair, pushes spread over the period; ${loads}.`].join('\n');
}

const argValue = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

if (require.main === module) {
  const pairs = Number(argValue('pairs') ?? 300);
  if (argValue('role') === 'venue') venueChild(pairs);
  else {
    const quick = process.argv.includes('--quick');
    const options: VenueOptions = {
      pairs,
      rounds: Number(argValue('rounds') ?? (quick ? 2 : 3)),
      seconds: Number(argValue('seconds') ?? (quick ? 4 : 10)),
      warmupSeconds: quick ? 2 : 5,
    };
    venueV2Bench(options, (line) => void process.stderr.write(line + '\n')).then(
      (rows) => {
        process.stdout.write(venueTable(rows) + '\n');
        process.exit(0);
      },
      (e: unknown) => {
        process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
        process.exit(1);
      },
    );
  }
}
