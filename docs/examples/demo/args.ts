/** Command line and environment of the demo. Secrets come from the environment only, never from argv. */

/** Where the demo connects. */
export type Target =
  | { readonly kind: 'simulator' }
  | {
      readonly kind: 'deployment';
      readonly publicUrl: string;
      /** The private side runs only when all four are set. */
      readonly privateUrl?: string;
      readonly restUrl?: string;
      readonly apiKey?: string;
      readonly secretKey?: string;
      readonly apiKeyHeader?: string;
    };

/** What the demo does. */
export interface DemoOptions {
  /** Run time in ms; `undefined` runs until Ctrl-C. */
  readonly durationMs: number | undefined;
  readonly symbols: readonly string[];
  readonly target: Target;
  /** Place the three demo orders (always on the simulator; on a deployment only with `--place-orders`). */
  readonly placeOrders: boolean;
  /** Print plain timestamped lines even on a terminal. */
  readonly plain: boolean;
}

/** The outcome of parsing. */
export type ParsedArgs =
  | { readonly kind: 'run'; readonly options: DemoOptions }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** Environment variables read by the demo. */
export const ENV = {
  publicUrl: 'EX_STREAMS_PUBLIC_URL',
  privateUrl: 'EX_STREAMS_PRIVATE_URL',
  restUrl: 'EX_STREAMS_REST_URL',
  apiKey: 'EX_STREAMS_API_KEY',
  secretKey: 'EX_STREAMS_SECRET_KEY',
  apiKeyHeader: 'EX_STREAMS_API_KEY_HEADER',
} as const;

/** Default run time. */
export const DEFAULT_DURATION_S = 30;
/** Default symbols. */
export const DEFAULT_SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;

/** `--help` text. */
export const USAGE = `Usage: npm start -- [options]

Live terminal view of ex-streams: order books, trades, candles and tickers of two symbols, a private
user stream with orders and balances, and a forced disconnect half-way (reconnect, resubscribe, gaps).
By default everything runs against the embedded exchange simulator on an ephemeral local port.

Options:
  --duration <seconds>  run time, default ${DEFAULT_DURATION_S}; 0 runs until Ctrl-C
  --symbols <A,B,...>   symbols, default ${DEFAULT_SYMBOLS.join(',')}
  --url <ws-url>        public stream URL of a real deployment instead of the simulator
                        (same as ${ENV.publicUrl}); no forced disconnect, no orders
  --place-orders        with --url: also place the three demo orders (a resting BUY, a BUY that
                        fills, a BUY that is cancelled) on that deployment: use a test account
  --plain               plain timestamped lines even on a terminal (the default when stdout is not one)
  --help                this text

Environment (real deployment; the API key and secret are read from here only, never from argv):
  ${ENV.publicUrl}    public stream URL, e.g. wss://host/quote/ws/v1
  ${ENV.privateUrl}   private stream URL without the key, e.g. wss://host/api/v1/ws
  ${ENV.restUrl}      HTTP API base, e.g. https://host
  ${ENV.apiKey}, ${ENV.secretKey}
                        credentials; the private side runs when the four above are set
  ${ENV.apiKeyHeader}   API-key header name (default X-EX-APIKEY)
`;

const SECRET_FLAGS = /^--(api-?key|secret(-?key)?|secretKey|apiKey)(=|$)/i;

/** Parses argv (without `node` and the script) and the environment. Never throws. */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedArgs {
  let durationS: number = DEFAULT_DURATION_S;
  let symbols: readonly string[] = DEFAULT_SYMBOLS;
  let url: string | undefined = nonEmpty(env[ENV.publicUrl]);
  let placeOrders = false;
  let plain = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag = '', inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (SECRET_FLAGS.test(arg)) {
      return { kind: 'error', message: `${flag}: keys are read from the environment only (${ENV.apiKey}, ${ENV.secretKey}), never from the command line` };
    }
    switch (flag) {
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--duration': {
        const v = value();
        const n = Number(v);
        if (v === undefined || v.trim() === '' || !Number.isFinite(n) || n < 0) {
          return { kind: 'error', message: `--duration needs a number of seconds >= 0, got ${v === undefined ? 'nothing' : JSON.stringify(v)}` };
        }
        durationS = n;
        break;
      }
      case '--symbols': {
        const list = (value() ?? '').split(',').map((s) => s.trim().toUpperCase()).filter((s) => s !== '');
        if (list.length === 0) return { kind: 'error', message: '--symbols needs a comma-separated list, e.g. BTCUSDT,ETHUSDT' };
        symbols = [...new Set(list)];
        break;
      }
      case '--url': {
        const v = nonEmpty(value());
        if (v === undefined || !/^wss?:\/\//.test(v)) return { kind: 'error', message: '--url needs a ws:// or wss:// address' };
        url = v;
        break;
      }
      case '--place-orders':
        placeOrders = true;
        break;
      case '--plain':
        plain = true;
        break;
      default:
        return { kind: 'error', message: `unknown argument ${JSON.stringify(arg)} (see --help)` };
    }
  }
  const durationMs = durationS === 0 ? undefined : Math.round(durationS * 1000);
  if (url === undefined) return { kind: 'run', options: { durationMs, symbols, target: { kind: 'simulator' }, placeOrders: true, plain } };
  const optional = (name: string): string | undefined => nonEmpty(env[name]);
  const target: Target = {
    kind: 'deployment',
    publicUrl: url,
    ...defined('privateUrl', optional(ENV.privateUrl)),
    ...defined('restUrl', optional(ENV.restUrl)),
    ...defined('apiKey', optional(ENV.apiKey)),
    ...defined('secretKey', optional(ENV.secretKey)),
    ...defined('apiKeyHeader', optional(ENV.apiKeyHeader)),
  };
  return { kind: 'run', options: { durationMs, symbols, target, placeOrders, plain } };
}

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v.trim());
const splitOnce = (arg: string): [string, string] => {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
};
const defined = <K extends string>(key: K, v: string | undefined): { [P in K]?: string } =>
  (v === undefined ? {} : { [key]: v }) as { [P in K]?: string };
