import { symbolInfo } from '../market/symbols';
import type { SimulatorOptions } from '../core/simulatorOptions';

/** The command name, first word of every message. @internal */
export const CLI_NAME = 'ex-streams-simulator';

/** Environment variable giving the control token when `--control-token` is absent. @internal */
export const CONTROL_TOKEN_ENV = 'EX_STREAMS_SIM_CONTROL_TOKEN';

/** What the simulator CLI was asked to do. @internal */
export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'usageError'; readonly message: string }
  | { readonly kind: 'run'; readonly options: SimulatorOptions; readonly json: boolean; readonly recording?: CliRecording };

/** `--recording DIR` (and `--recording-speed N`): the recording the CLI loads as the market. @internal */
export interface CliRecording {
  /** The recording's directory (or one file), as given. */
  readonly path: string;
  /** Recorded seconds per simulator second. Default 1. */
  readonly speed: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<SimulatorOptions> & { json?: boolean; recordingPath?: string; recordingSpeed?: number };
/** A parsed value, or the reason the text is not one ("must be …"). */
type Parsed<T> = { readonly ok: T } | { readonly error: string; readonly got?: string };

interface CliOption {
  readonly name: string;
  /** Placeholder of the value in the help; absent for a flag. */
  readonly value?: string;
  readonly help: string;
  readonly defaultText: string;
  readonly apply: (draft: Draft, text: string) => string | undefined;
}

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const integer = (text: string, min: number, max: number): Parsed<number> =>
  /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max
    ? { ok: Number(text) }
    : { error: `must be an integer ${min}-${max}` };

const matching = (pattern: RegExp, what: string) => (text: string): Parsed<string> =>
  pattern.test(text) ? { ok: text } : { error: `must be ${what}` };

const positiveNumber = (text: string): Parsed<number> =>
  /^\d+(?:\.\d+)?$/.test(text) && Number(text) > 0 && Number(text) <= 1_000_000
    ? { ok: Number(text) }
    : { error: 'must be a positive number up to 1000000 (recorded seconds per second)' };

const symbolList = (text: string): Parsed<string[]> => {
  const symbols = text.split(',').map((s) => s.trim());
  if (symbols.some((s) => s === '')) return { error: 'must be a comma-separated list of pairs such as BTCUSDT,ETHUSDT' };
  const bad = symbols.find((s) => symbolInfo(s) === undefined);
  return bad === undefined ? { ok: symbols } : { error: 'must be pairs in capitals quoted in USDT, BTC or ETH, such as BTCUSDT', got: bad };
};

/** An option taking a value, stored in `key` once `parse` accepts it. */
function valued<K extends keyof Draft>(
  name: string,
  value: string,
  key: K,
  parse: (text: string) => Parsed<Draft[K]>,
  help: string,
  defaultText: string,
): CliOption {
  return {
    name,
    value,
    help,
    defaultText,
    apply: (draft, text) => {
      const parsed = parse(text);
      if ('error' in parsed) return `${name} ${parsed.error}, got ${quoteGiven(name, parsed.got ?? text)}`;
      draft[key] = parsed.ok;
      return undefined;
    },
  };
}

const flag = (name: string, key: 'twoFactor' | 'batchPrivateEvents' | 'json', help: string): CliOption => ({
  name,
  help,
  defaultText: 'off',
  apply: (draft) => {
    draft[key] = true;
    return undefined;
  },
});

/** Every option, in help order. */
const OPTIONS: readonly CliOption[] = [
  valued('--port', 'N', 'port', (t) => integer(t, 0, 65535), 'port of the HTTP API and both streams; 0 picks a free one', '0'),
  valued('--host', 'HOST', 'host', matching(VISIBLE_ASCII, 'an interface name or address'), 'interface to listen on', '127.0.0.1'),
  valued('--symbols', 'A,B', 'symbols', symbolList, 'pairs to simulate (quote USDT, BTC or ETH)', 'BTCUSDT,ETHUSDT'),
  valued('--seed', 'N', 'seed', (t) => integer(t, 0, 4294967295), 'seed of the market, the credentials and all random choices', '1'),
  valued('--api-key', 'KEY', 'apiKey', matching(VISIBLE_ASCII, 'visible ASCII characters without spaces'), 'API key of the account', 'derived from the seed'),
  valued('--secret-key', 'SECRET', 'secretKey', matching(/^.+$/s, 'non-empty'), 'secret key of the account', 'derived from the seed'),
  valued('--api-key-header', 'NAME', 'apiKeyHeader', matching(HEADER_NAME, 'an HTTP header name'), 'header that must carry the API key', 'X-EX-APIKEY'),
  valued('--control-token', 'TOKEN', 'controlToken', matching(VISIBLE_ASCII, 'visible ASCII characters without spaces'),
    'token the /__control routes require', 'none on loopback, random beyond'),
  valued('--recording', 'DIR', 'recordingPath', matching(/^.+$/s, 'a directory (or file) written by ex-streams record'),
    'a recording as the market of the pairs it holds, with paper fills', 'none: a generated market'),
  valued('--recording-speed', 'N', 'recordingSpeed', positiveNumber, 'recorded seconds played per second (with --recording)', '1'),
  flag('--two-factor', 'twoFactor', 'require 2FA tokens on the 2FA endpoints'),
  flag('--batch-private-events', 'batchPrivateEvents', 'one private frame per operation (events in an array)'),
  flag('--json', 'json', 'print one JSON object on stdout, nothing else'),
  { name: '--help', help: 'print this help and exit', defaultText: '', apply: () => undefined },
];

/** The `--help` text: every option with its default, the environment variable and the exit codes. @internal */
export function helpText(): string {
  const left = (o: CliOption): string => `  ${o.name === '--help' ? '-h, --help' : o.name}${o.value === undefined ? '' : ` ${o.value}`}`;
  const width = Math.max(...OPTIONS.map((o) => left(o).length)) + 2;
  const lines = OPTIONS.map((o) => {
    const text = left(o).padEnd(width) + o.help;
    return o.defaultText === '' ? text : `${text} (default: ${o.defaultText})`;
  });
  return [
    `Usage: ${CLI_NAME} [options]`,
    '',
    'Runs the ex-streams exchange simulator (HTTP API, public and private streams on one port) until',
    'Ctrl-C or SIGTERM, and prints the url of marketStreams, the url of userStream (without the listen',
    'key: userStream appends /{listenKey}), the restClient baseUrl and credentials, and the control token.',
    '',
    'Options (--name VALUE or --name=VALUE):',
    ...lines,
    '',
    'Environment:',
    `  ${CONTROL_TOKEN_ENV}  control token when --control-token is absent`,
    '',
    'Exit codes: 0 stopped by a signal (or --help), 1 could not start, 2 bad option.',
    '',
  ].join('\n');
}

/**
 * Parses the CLI's arguments (`--name VALUE`, `--name=VALUE`, flags) and the environment into a command;
 * never throws: an unknown option, a missing or invalid value becomes a `usageError` whose message names the
 * option, the rule and the text given (a secret's text is not repeated).
 * @internal
 */
export function parseCliArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliCommand {
  const draft: Draft = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const option = OPTIONS.find((o) => o.name === name);
    if (option === undefined) {
      return usageError(arg.startsWith('-') ? `unknown option '${name}'` : `unexpected argument '${arg}' (options start with --)`);
    }
    let text = '';
    if (option.value === undefined) {
      if (eq !== -1) return usageError(`${name} takes no value`);
    } else if (eq !== -1) {
      text = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) return usageError(`${name} needs a value (${option.value})`);
      text = next;
      i++;
    }
    const error = option.apply(draft, text);
    if (error !== undefined) return usageError(error);
  }
  const envToken = env[CONTROL_TOKEN_ENV];
  if (draft.controlToken === undefined && envToken !== undefined && envToken !== '') {
    if (!VISIBLE_ASCII.test(envToken)) return usageError(`${CONTROL_TOKEN_ENV} must be visible ASCII characters without spaces`);
    draft.controlToken = envToken;
  }
  const { json = false, recordingPath, recordingSpeed, ...options } = draft;
  if (recordingPath === undefined) {
    if (recordingSpeed !== undefined) return usageError('--recording-speed needs --recording DIR');
    return { kind: 'run', options, json };
  }
  return { kind: 'run', options, json, recording: { path: recordingPath, speed: recordingSpeed ?? 1 } };
}

const SECRET_OPTIONS = new Set(['--secret-key', '--control-token', '--api-key']);

/** The text given, quoted and cut; a secret's text is never repeated. */
function quoteGiven(name: string, text: string): string {
  if (SECRET_OPTIONS.has(name)) return `${text.length} characters (not shown)`;
  return text.length > 40 ? `'${text.slice(0, 40)}…'` : `'${text}'`;
}

const usageError = (message: string): CliCommand => ({ kind: 'usageError', message });
