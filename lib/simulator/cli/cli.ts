import { CLI_NAME, helpText, parseCliArgs } from './cliArgs';
import type { Simulator } from '../core/simulator';
import type { SimulatorOptions } from '../core/simulatorOptions';

/**
 * What `ex-streams-simulator --json` prints (one line): each of the first three objects is the config of the
 * function it is named after, so `marketStreams(info.marketStreams)`, `restClient(info.restClient)` and
 * `userStream({ ...info.userStream, rest })` work as they are.
 *
 * @example
 * ```ts
 * // ex-streams-simulator --json > sim.json &   (then, once sim.json has its line:)
 * import { readFileSync } from 'node:fs';
 * import { marketStreams, restClient, userStream } from 'ex-streams';
 * import type { SimulatorCliInfo } from 'ex-streams/simulator';
 *
 * const info = JSON.parse(readFileSync('sim.json', 'utf8')) as SimulatorCliInfo;
 * const market = marketStreams(info.marketStreams); // { url: 'ws://127.0.0.1:PORT/quote/ws/v1' }
 * const rest = restClient(info.restClient);         // baseUrl, apiKey, secretKey, apiKeyHeader
 * const user = userStream({ ...info.userStream, rest }); // url 'ws://127.0.0.1:PORT/api/v1/ws', no key
 * ```
 */
export interface SimulatorCliInfo {
  /** `ws://HOST:PORT/quote/ws/v1`, the `url` of `marketStreams`. */
  readonly marketStreams: { readonly url: string };
  /** `ws://HOST:PORT/quote/ws/v2`, the `url` of `marketStreams` over HashKey's V2 stream (`depth` every 100 ms, `bbo`). */
  readonly marketStreamsV2: { readonly url: string };
  /** `ws://HOST:PORT/api/v1/ws`, the `url` of `userStream`: WITHOUT the listen key, `userStream` appends `/{listenKey}`. */
  readonly userStream: { readonly url: string };
  /** The HTTP API base (`http://HOST:PORT`) and the account's credentials, as `restClient` takes them. */
  readonly restClient: {
    readonly baseUrl: string;
    readonly apiKey: string;
    readonly secretKey: string;
    readonly apiKeyHeader: string;
  };
  /** `POST {url}/{name}`; `token` (null on loopback without one) goes in `X-SIM-CONTROL-TOKEN`. */
  readonly control: { readonly url: string; readonly token: string | null };
  /** The interface listened on (`--host`). */
  readonly host: string;
  /** The port bound (the free one picked for `--port 0`). */
  readonly port: number;
  /** The simulated pairs (with `--recording` and no `--symbols`: the recorded pairs served). */
  readonly symbols: readonly string[];
  /** The seed of the market and credentials. */
  readonly seed: number;
  /** Whether the 2FA endpoints require tokens (`--two-factor`). */
  readonly twoFactor: boolean;
  /** Whether private events of one operation come in one frame (`--batch-private-events`). */
  readonly batchPrivateEvents: boolean;
  /** The simulator's process id (send it SIGTERM to stop it). */
  readonly pid: number;
}

/**
 * What {@link runSimulatorCli} runs in: the arguments, the environment and where its output goes.
 *
 * @example
 * ```ts
 * import type { SimulatorCliHost } from 'ex-streams/simulator';
 * const host: SimulatorCliHost = { argv: ['--json'], env: {}, stdout: (t) => process.stdout.write(t), stderr: () => {} };
 * ```
 */
export interface SimulatorCliHost {
  /** The options, as after the command name (`process.argv.slice(2)`). */
  readonly argv: readonly string[];
  /** Environment variables (`EX_STREAMS_SIM_CONTROL_TOKEN`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Receives the addresses, the `--json` line or the help. */
  readonly stdout: (text: string) => void;
  /** Receives usage and start errors. */
  readonly stderr: (text: string) => void;
  /** Path or address of the simulator guide, printed in the text output when given. Default: not printed. */
  readonly docs?: string;
}

/**
 * A simulator started by {@link runSimulatorCli}.
 *
 * @example
 * ```ts
 * import { runSimulatorCli, type SimulatorCliRun } from 'ex-streams/simulator';
 * const run = await runSimulatorCli({ argv: ['--port', '0'], env: {}, stdout: () => undefined, stderr: console.error });
 * if (typeof run !== 'number') {
 *   const started: SimulatorCliRun = run;
 *   await started.stop(); // closes every socket and timer
 * }
 * ```
 */
export interface SimulatorCliRun {
  /** Stops the simulator: closes its sockets and timers. */
  readonly stop: () => Promise<void>;
}

/**
 * The `ex-streams-simulator` command in this process (the bin calls it): parses the options, starts the
 * simulator and prints its addresses (the `marketStreams` and `userStream` urls, the `restClient` config, the
 * control token) as text or, with `--json`, as one {@link SimulatorCliInfo} line; then resolves `{ stop }`.
 * Without a simulator it resolves the exit code instead: 0 after `--help`, 2 after a bad option (one line
 * on stderr naming the option, the rule and the value given), 1 when the simulator cannot start (e.g. the
 * port is in use). Never rejects for bad input.
 *
 * @example
 * ```ts
 * import { runSimulatorCli } from 'ex-streams/simulator';
 * const run = await runSimulatorCli({
 *   argv: ['--port', '0', '--json'],
 *   env: {},
 *   stdout: (text) => console.log(JSON.parse(text).marketStreams.url), // ws://127.0.0.1:PORT/quote/ws/v1
 *   stderr: (text) => console.error(text),
 * });
 * if (typeof run !== 'number') await run.stop();
 * ```
 */
export async function runSimulatorCli(host: SimulatorCliHost): Promise<number | SimulatorCliRun> {
  const command = parseCliArgs(host.argv, host.env);
  if (command.kind === 'help') {
    host.stdout(helpText());
    return 0;
  }
  if (command.kind === 'usageError') {
    host.stderr(`${CLI_NAME}: ${command.message}\nRun ${CLI_NAME} --help for the options and their defaults.\n`);
    return 2;
  }
  const { startSimulator } = await import('../core/startSimulator');
  // A CLI simulator runs for days: `sent()` keeps the newest 10 000 trade ids a pair (not every id it ever pushed).
  let options: typeof command.options = { sentTradeIds: 10_000, ...command.options };
  if (command.recording !== undefined) {
    const { path, speed } = command.recording;
    const { loadRecording } = await import('../../node/loadRecording');
    try {
      const recording = await loadRecording(path);
      const [first] = recording.corrupt;
      if (first !== undefined) {
        host.stderr(`${CLI_NAME}: ${recording.corrupt.length} damaged part(s) of the recording are skipped, nothing of them played (the first: ${first.error.message.slice(0, 300)})\n`);
      }
      options = { ...options, recordedMarket: { recording, speed } };
    } catch (e) {
      // a RecordingUnreadableError's message begins with the path at fault (the directory, or a file in it)
      const unreadable = e instanceof Error && e.name === 'RecordingUnreadableError';
      host.stderr(`${CLI_NAME}: cannot read the recording at ${unreadable ? '' : `${path}: `}${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  }
  let sim: Simulator;
  try {
    sim = await startSimulator(options);
  } catch (e) {
    host.stderr(`${CLI_NAME}: ${startFailure(e, command.options)}\n`);
    return 1;
  }
  const info = cliInfo(sim, options);
  host.stdout(command.json ? `${JSON.stringify(info)}\n` : textOutput(info, host.docs));
  return { stop: () => sim.close() };
}

/** The `--json` object of a running simulator. */
function cliInfo(sim: Simulator, options: SimulatorOptions): SimulatorCliInfo {
  return {
    marketStreams: { url: sim.publicStreamUrl },
    marketStreamsV2: { url: sim.publicStreamV2Url },
    userStream: { url: sim.privateStreamUrl },
    restClient: { baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey, apiKeyHeader: sim.apiKeyHeader },
    control: { url: `${sim.baseUrl}/__control`, token: sim.controlToken ?? null },
    host: options.host ?? '127.0.0.1',
    port: sim.port,
    symbols: sim.symbols,
    seed: options.seed ?? 1,
    twoFactor: options.twoFactor ?? false,
    batchPrivateEvents: options.batchPrivateEvents ?? false,
    pid: process.pid,
  };
}

const q = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The human output: the three calls to paste, then the control surface. */
function textOutput(info: SimulatorCliInfo, docs: string | undefined): string {
  const r = info.restClient;
  return [
    `${CLI_NAME}: listening on ${info.host}:${info.port} (symbols ${info.symbols.join(',')}, seed ${info.seed}` +
      `${info.twoFactor ? ', 2FA on' : ''}); Ctrl-C stops it.`,
    '',
    `import { marketStreams, restClient, userStream } from 'ex-streams';`,
    '',
    `const market = marketStreams({ url: ${q(info.marketStreams.url)} });`,
    `// or the V2 stream (one symbol a frame, acknowledged; depth every 100 ms, bbo): marketStreams({ url: ${q(info.marketStreamsV2.url)} })`,
    'const rest = restClient({',
    `  baseUrl: ${q(r.baseUrl)},`,
    `  apiKey: ${q(r.apiKey)},`,
    `  secretKey: ${q(r.secretKey)},`,
    `  apiKeyHeader: ${q(r.apiKeyHeader)},`,
    '});',
    `// url without the listen key: userStream creates the key with rest and appends /{listenKey} itself`,
    `const user = userStream({ url: ${q(info.userStream.url)}, rest });`,
    '',
    `control: POST ${info.control.url}/<name> (drop, stall, skewClock, issueTwoFactorToken, ...)`,
    info.control.token === null
      ? 'control token: none (loopback: the control routes are open)'
      : `control token: ${info.control.token} (header X-SIM-CONTROL-TOKEN or Authorization: Bearer)`,
    ...(docs === undefined ? [] : [`guide: ${docs}`]),
    '',
  ].join('\n');
}

/** A start failure in words: the listen errors a user can fix get their fix. */
function startFailure(e: unknown, options: SimulatorOptions): string {
  const where = `${options.host ?? '127.0.0.1'}:${options.port ?? 0}`;
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use (EADDRINUSE); choose another --port, or --port 0 for a free one`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (EACCES); use a port above 1023`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `cannot listen on ${where}: no such local address (${code}); check --host`;
    default:
      return `cannot start: ${e instanceof Error ? e.message : String(e)}`;
  }
}
