/**
 * Running the README's "A first stream" blocks as a reader would, against a simulator: shared by
 * spec/docs/readmeSnippets.spec.ts (the sources, under ts-node) and scripts/check-packed-readme.ts (the packed
 * package, plain `node` on `.mjs` files, in CI after the build).
 *
 * The only changes made to a block are textual and the ones the README tells its reader to make: the example
 * hosts become the simulator's (`wss://stream.example.com` → `ws://127.0.0.1:PORT`, `https://api.example.com`
 * → `http://127.0.0.1:PORT`, paths unchanged) and the credentials come from the environment the block reads
 * (`EX_STREAMS_API_KEY`, `EX_STREAMS_SECRET_KEY`). Under the test suite (before any build) the module name
 * `'ex-streams'` is also pointed at lib/index.ts.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import { tsBlocks } from './markdownBlocks';

/** The ts blocks of the README section `## A first stream` / `### A first stream`, up to the next `##` heading. */
export const firstStreamBlocks = (readme: string): string[] => {
  const start = readme.search(/^#{2,3} A first stream\s*$/m);
  if (start < 0) throw new Error("README.md has no 'A first stream' section");
  const body = readme.indexOf('\n', start) + 1;
  const next = readme.slice(body).search(/^## /m);
  const section = readme.slice(start, next < 0 ? undefined : body + next);
  return tsBlocks('README.md', section).map((b) => b.code);
};

/**
 * The substitution described above. `moduleTo`, when given, replaces the module name `'ex-streams'`. Throws
 * when it replaces nothing or leaves an example host (or, with `moduleTo`, the module name) behind.
 */
export const substitute = (code: string, sim: { readonly port: number; readonly baseUrl: string }, moduleTo?: string): string => {
  let out = code.split('wss://stream.example.com').join(`ws://127.0.0.1:${sim.port}`).split('https://api.example.com').join(sim.baseUrl);
  if (moduleTo !== undefined) out = out.replace(/(from\s+)(['"])ex-streams\2/g, (_m, from: string) => `${from}${JSON.stringify(moduleTo)}`);
  const leftover = moduleTo === undefined ? /example\.com/ : /example\.com|['"]ex-streams['"]/;
  if (out === code || leftover.test(out)) throw new Error(`substitution incomplete:\n${out}`);
  return out;
};

/** What the market block prints once it has data: a book, a trade and the open connection. */
export const MARKET_SHOWS: readonly RegExp[] = [
  /^bid \d[\d.]* ask \d[\d.]* spread \d[\d.]*$/m,
  /^trade \d+ \d[\d.]* \d[\d.]*$/m,
  /^connection open epoch 1$/m,
];

/** What the private block prints once an order of the account changed: the order count and the report. */
export const USER_SHOWS: readonly RegExp[] = [/^\d+ orders known$/m, /^\d+ (NEW|PARTIALLY_FILLED|FILLED) \d[\d.]* \/ \d[\d.]*$/m];

/** The body of an order the simulator accepts for the account (it rests: price far below the market). */
export const RESTING_ORDER = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '1000' } as const;

/** A child process whose stdout is awaited for patterns. */
export interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches every pattern; rejects if the process exits first or after `ms`. */
  shows(patterns: readonly RegExp[], ms: number): Promise<void>;
  /** Whether it has exited. */
  exited(): boolean;
  /** SIGTERM (unless exited), then its exit: the signal name or the exit code. */
  stop(): Promise<NodeJS.Signals | number | null>;
}

/**
 * Spawns `node ...args` with `env` added to this process's environment less its `EX_STREAMS_*` variables.
 * `runtime` runs another program instead of this Node: its executable and the arguments before `args`
 * (`['/path/to/deno', 'run', '-A']`; scripts/check-runtimes.ts).
 */
export const runNode = (
  name: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly runtime?: readonly [string, ...string[]] },
): Running => {
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (key.startsWith('EX_STREAMS_') || key.startsWith('TS_NODE_')) delete base[key];
  const [command, ...before] = options.runtime ?? [process.execPath];
  const child = spawn(command, [...before, ...args], { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...base, ...options.env } });
  let stdout = '';
  let stderr = '';
  let exit: NodeJS.Signals | number | null | undefined;
  const exitP = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (c, signal) => {
      exit = signal ?? c;
      resolve(exit);
    }),
  );
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const w of [...waiters]) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const report = (what: string): Error => new Error(`${name}: ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: () => exit !== undefined,
    shows: (patterns, ms) =>
      new Promise<void>((resolve, reject) => {
        const done = (then: () => void): void => {
          clearTimeout(timer);
          waiters.delete(check);
          child.off('exit', onExit);
          then();
        };
        const check = (): void => {
          if (patterns.every((p) => p.test(stdout))) done(resolve);
        };
        const onExit = (): void => done(() => reject(report(`exited (${String(exit)}) before showing ${patterns.join(' ')}`)));
        const timer = setTimeout(() => done(() => reject(report(`no ${patterns.join(' ')} within ${ms} ms`))), ms);
        waiters.add(check);
        child.on('exit', onExit);
        if (exit !== undefined) onExit();
        else check();
      }),
    stop: () => {
      if (exit === undefined) child.kill('SIGTERM');
      return exitP;
    },
  };
};

/**
 * Places `placeOrder()` (awaited) then waits up to `stepMs` for `USER_SHOWS`, until the private block shows
 * them or `attempts` run out: an order placed before the process has its listen key and socket is not streamed
 * to it. Resolves whether it showed them; rejects if the process exits.
 */
export const untilUserShows = async (p: Running, placeOrder: () => Promise<unknown>, attempts = 30, stepMs = 500): Promise<boolean> => {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    await placeOrder();
    const shown = await p.shows(USER_SHOWS, stepMs).then(
      () => true,
      (e: unknown) => {
        if (p.exited()) throw e;
        return false;
      },
    );
    if (shown) return true;
  }
  return false;
};
