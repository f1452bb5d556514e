import { statSync } from 'node:fs';
import { asyncScheduler, type Observable, type SchedulerLike, switchMap, timer } from 'rxjs';
import { type MarketRecording, recordMarket } from './recordMarket';
import type { RecordingProgress } from './recordingProgress';

const NAME = 'ex-streams record';

/**
 * What {@link runRecordCli} runs in: the arguments, where its output goes, and whether that is a terminal.
 *
 * @example
 * ```ts
 * import type { RecordCliHost } from 'ex-streams/node';
 * const host: RecordCliHost = {
 *   argv: ['--symbols', 'BTCUSDT', '--out', 'rec', '--duration', '30s'],
 *   stdout: (t) => process.stdout.write(t),
 *   stderr: (t) => process.stderr.write(t),
 *   isTTY: process.stdout.isTTY === true,
 * };
 * ```
 */
export interface RecordCliHost {
  /** The options, after `record` (`process.argv.slice(3)` for `ex-streams record …`). */
  readonly argv: readonly string[];
  /** Receives the progress line, the summary and the help. */
  readonly stdout: (text: string) => void;
  /** Receives usage errors and write failures. */
  readonly stderr: (text: string) => void;
  /** On a terminal the progress line is rewritten in place every second; otherwise only the summary is printed. */
  readonly isTTY: boolean;
  /** Clock of `--duration` and of the receive times. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

/**
 * A recording started by {@link runRecordCli}.
 *
 * @example
 * ```ts
 * import { runRecordCli } from 'ex-streams/node';
 * const run = await runRecordCli({ argv: ['--symbols', 'BTCUSDT', '--out', 'rec'], stdout: console.log, stderr: console.error, isTTY: false });
 * if (typeof run !== 'number') process.once('SIGINT', () => void run.stop());
 * ```
 */
export interface RecordCliRun {
  /** Stops the recording cleanly (the manifest complete) and prints the summary; idempotent. */
  stop(): Promise<void>;
  /** Resolves once the recording stopped (after `--duration`, or `stop()`). */
  readonly finished: Promise<void>;
}

interface RecordArgs {
  symbols: string[];
  topics: string[];
  out: string;
  url: string;
  durationMs: number | undefined;
  maxFileBytes: number;
  maxFileMs: number;
  binary: boolean;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;
const UNIT: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The longest `--duration` / `--rotate`: a year. */
const MAX_DURATION_MS = 366 * 86_400_000;

/** The longest delay one Node timer takes (2^31 - 1 ms, about 24.8 days): a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `30s`, `5m`, `1h`, `250ms`, `2d`; a bare number is seconds. At least 1 ms, at most {@link MAX_DURATION_MS}. */
function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (m === null) return undefined;
  const ms = Math.round(Number(m[1]) * UNIT[m[2] ?? 's']!);
  return ms >= 1 && ms <= MAX_DURATION_MS ? ms : undefined;
}

/** Emits once after `ms` on `scheduler`, in steps a Node timer can take (a 25-day `timer` would fire at once). */
function longTimer(ms: number, scheduler: SchedulerLike): Observable<unknown> {
  return ms <= MAX_TIMER_MS ? timer(ms, scheduler) : timer(MAX_TIMER_MS, scheduler).pipe(switchMap(() => longTimer(ms - MAX_TIMER_MS, scheduler)));
}

/** Why `out` cannot be the recording's directory (a file, or a file on its path), `undefined` when it can be (or made). */
function outProblem(out: string): string | undefined {
  try {
    if (!statSync(out).isDirectory()) return `--out must be a directory, but '${out.slice(0, 200)}' is a file`;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOTDIR') return `--out must be a directory, but a part of '${out.slice(0, 200)}' is a file`;
    if (code !== 'ENOENT') return `--out '${out.slice(0, 200)}' cannot be used: ${e instanceof Error ? e.message : String(e)}`;
  }
  return undefined;
}

const HELP = `Usage: ${NAME} --symbols A,B --out DIR [options]

Records what the public market stream sends (every frame as received, with its receive time, the connection's
epochs and gaps) into DIR: gzip files of one JSON line per event, rotated, described by DIR/manifest.json. A crash
loses at most the last second. Ctrl-C (SIGINT) or SIGTERM stops it cleanly. Replay with loadRecording (ex-streams/node)
and replayMarket (ex-streams/testing); guide: docs/history-and-replay.md.

  --symbols A,B        pairs to record (required)
  --topics T,U         trade, depth, realtimes, kline_<interval> (default: trade,depth,kline_1m)
  --out DIR            the recording's directory, made if missing (required)
  --url URL            public stream address (default: ws://127.0.0.1:8080/quote/ws/v1: a simulator started with --port 8080)
  --duration D         stop after D: 30s, 5m, 1h, 250ms, 2d (at most 366d); a bare number is seconds (default: until Ctrl-C)
  --max-file-mb N      start a new file at N MiB compressed (default: 64)
  --rotate D           start a new file every D (default: 1h)
  --binary             ask for zip binary frames (recorded in base64) (default: off, JSON text)
  --help               this text
`;

type Parsed = { readonly help: true } | { readonly error: string } | { readonly args: RecordArgs };

/** Parses the options of `ex-streams record`. @internal */
export function parseRecordArgs(argv: readonly string[]): Parsed {
  const args: RecordArgs = {
    symbols: [],
    topics: ['trade', 'depth', 'kline_1m'],
    out: '',
    url: 'ws://127.0.0.1:8080/quote/ws/v1',
    durationMs: undefined,
    maxFileBytes: 64 * 1024 * 1024,
    maxFileMs: 3_600_000,
    binary: false,
  };
  const list = (text: string): string[] => text.split(',').map((s) => s.trim());
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!;
    if (name === '--help' || name === '-h') return { help: true };
    if (name === '--binary') {
      args.binary = true;
      continue;
    }
    const known = ['--symbols', '--topics', '--out', '--url', '--duration', '--max-file-mb', '--rotate'];
    if (!known.includes(name)) return { error: `unknown option '${name.slice(0, 40)}'` };
    const value = argv[++i];
    if (value === undefined) return { error: `${name} needs a value` };
    const bad = (rule: string): Parsed => ({ error: `${name} must be ${rule}, got '${value.slice(0, 60)}'` });
    switch (name) {
      case '--symbols':
        args.symbols = list(value);
        if (args.symbols.some((s) => !/^[A-Za-z0-9]{1,32}$/.test(s))) return bad('a comma-separated list of pairs such as BTCUSDT,ETHUSDT');
        break;
      case '--topics':
        args.topics = list(value);
        if (args.topics.some((t) => !/^(trade|depth|realtimes|kline_[0-9]{1,4}[smhdwM])$/.test(t))) return bad('trade, depth, realtimes or kline_<interval>, comma-separated');
        break;
      case '--out':
        args.out = value;
        break;
      case '--url':
        if (!/^wss?:\/\/\S+$/.test(value)) return bad('a ws:// or wss:// address');
        args.url = value;
        break;
      case '--duration': {
        const ms = durationMs(value);
        if (ms === undefined) return bad('a duration from 1ms to 366d, such as 30s, 5m, 1h');
        args.durationMs = ms;
        break;
      }
      case '--max-file-mb':
        if (!/^\d+$/.test(value) || Number(value) < 1) return bad('a whole number of MiB, at least 1');
        args.maxFileBytes = Number(value) * 1024 * 1024;
        break;
      case '--rotate': {
        const ms = durationMs(value);
        if (ms === undefined) return bad('a duration from 1ms to 366d, such as 10m, 1h');
        args.maxFileMs = ms;
        break;
      }
    }
  }
  if (args.symbols.length === 0) return { error: '--symbols is required (e.g. --symbols BTCUSDT,ETHUSDT)' };
  if (args.out === '') return { error: '--out is required (the recording directory)' };
  return { args };
}

const size = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;

const progressText = (p: RecordingProgress): string => `${p.messages} messages, ${size(p.bytes)}, ${p.files} file${p.files === 1 ? '' : 's'}`;

/**
 * The `ex-streams record` command in this process (the bin calls it): parses the options and starts
 * {@link recordMarket}; on a terminal it rewrites one progress line (messages, bytes, files) every second. Resolves
 * the running recording (`stop()`, `finished`), or an exit code without one: 0 after `--help`, 2 after a bad option,
 * 1 when the recording cannot start (`--out` is a file, or cannot be made): one line on stderr. Never rejects for bad
 * input. `--duration` may be longer than a Node timer's 24.8 days (up to 366 days): it is waited for in steps.
 *
 * @example
 * ```ts
 * import { runRecordCli } from 'ex-streams/node';
 * const run = await runRecordCli({
 *   argv: ['--symbols', 'BTCUSDT,ETHUSDT', '--topics', 'trade,depth,kline_1m', '--out', 'rec', '--duration', '30s'],
 *   stdout: (t) => process.stdout.write(t),
 *   stderr: (t) => process.stderr.write(t),
 *   isTTY: process.stdout.isTTY === true,
 * });
 * if (typeof run !== 'number') await run.finished; // 30 s later: rec/manifest.json complete
 * ```
 */
export async function runRecordCli(host: RecordCliHost): Promise<number | RecordCliRun> {
  const parsed = parseRecordArgs(host.argv);
  if ('help' in parsed) {
    host.stdout(HELP);
    return 0;
  }
  if ('error' in parsed) {
    host.stderr(`${NAME}: ${parsed.error}\nRun ${NAME} --help for the options and their defaults.\n`);
    return 2;
  }
  const { args } = parsed;
  const problem = outProblem(args.out);
  if (problem !== undefined) {
    host.stderr(`${NAME}: ${problem}\n`);
    return 1;
  }
  const scheduler = host.scheduler ?? asyncScheduler;
  const reported = new Set<string>();
  let recording: MarketRecording;
  try {
    recording = recordMarket({
      url: args.url,
      symbols: args.symbols,
      topics: args.topics,
      out: args.out,
      maxFileBytes: args.maxFileBytes,
      maxFileMs: args.maxFileMs,
      binary: args.binary,
      scheduler,
      onError: (e) => {
        const text = `${NAME}: ${e.name}: ${e.message}`.slice(0, 300);
        if (reported.has(text)) return;
        reported.add(text);
        host.stderr(`${host.isTTY ? '\n' : ''}${text}\n`);
      },
    });
  } catch (e) {
    host.stderr(`${NAME}: cannot record into '${args.out.slice(0, 200)}': ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  let last: RecordingProgress = { messages: 0, bytes: 0, files: 0 };
  const progress = recording.progress$.subscribe((p) => {
    last = p;
    if (host.isTTY) host.stdout(`\r\x1b[2K${NAME}: ${progressText(p)}`);
  });
  let resolveFinished!: () => void;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= recording.stop().then(() => {
      progress.unsubscribe();
      deadline?.unsubscribe();
      host.stdout(`${host.isTTY ? '\r\x1b[2K' : ''}${NAME}: ${progressText(last)} in ${args.out} (manifest.json complete)\n`);
      resolveFinished();
    }));
  const deadline = args.durationMs === undefined ? undefined : longTimer(args.durationMs, scheduler).subscribe(() => void stop());
  return { stop, finished };
}
