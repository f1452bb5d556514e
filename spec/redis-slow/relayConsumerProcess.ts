import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { TradeGap } from '../../lib/operators/distinctTrades';
import type { RedisTarget, RelayGap } from '../../lib/redis';

/** What a relay consumer child reported (fixtures/relayConsumer.ts). */
export interface ConsumerReport {
  /** Trade ids per symbol, in the order received. */
  readonly trades: Map<string, string[]>;
  /** Book versions per symbol, in the order received. */
  readonly books: Map<string, string[]>;
  readonly tradeGaps: TradeGap[];
  readonly relayGaps: RelayGap[];
  readonly errors: string[];
  /** Epochs opened. */
  readonly epochs: number[];
}

/** A running consumer child: its reports so far, a wait on them, SIGSTOP/SIGCONT, and a stop that waits for its exit. */
export interface ConsumerProcess {
  readonly child: ChildProcess;
  readonly report: ConsumerReport;
  /** Resolves once `test(report)` holds (checked on each line batch); rejects when the child exits first, or after `timeoutMs` (default 30 s) with what it got. */
  until(test: (report: ConsumerReport) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** A short account of a report, for a failure's message. */
function summary(report: ConsumerReport): string {
  const counts = (map: Map<string, string[]>): string => [...map].map(([s, ids]) => `${s} ${ids.length} (last ${ids.at(-1)})`).join(', ');
  return `trades: ${counts(report.trades)}; books: ${counts(report.books)}; epochs ${report.epochs.join(',')}; trade gaps ${JSON.stringify(report.tradeGaps)}; relay gaps ${JSON.stringify(report.relayGaps.slice(0, 3))}; errors ${JSON.stringify(report.errors.slice(0, 3))}`;
}

const FIXTURE = path.join(__dirname, 'fixtures', 'relayConsumer.ts');

/** Starts `node -r ts-node/register/transpile-only fixtures/relayConsumer.ts <config>`. */
export function startConsumer(config: { redis: RedisTarget; prefix: string; shards: number; symbols: readonly string[]; depth?: readonly string[] }): ConsumerProcess {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', FIXTURE, JSON.stringify(config)], {
    cwd: path.join(__dirname, '..', '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const report: ConsumerReport = { trades: new Map(), books: new Map(), tradeGaps: [], relayGaps: [], errors: [], epochs: [] };
  const waiters = new Set<() => void>();
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      for (const w of waiters) w();
      resolve();
    }),
  );
  let carry = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const lines = (carry + chunk).split('\n');
    carry = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') continue;
      const m = JSON.parse(line) as { k: string; s?: string; v?: string; e?: number; m?: string };
      const push = (map: Map<string, string[]>): void => {
        const list = map.get(m.s!);
        if (list) list.push(m.v!);
        else map.set(m.s!, [m.v!]);
      };
      if (m.k === 't') push(report.trades);
      else if (m.k === 'b') push(report.books);
      else if (m.k === 'g') report.tradeGaps.push(m as unknown as TradeGap);
      else if (m.k === 'r') report.relayGaps.push(m as unknown as RelayGap);
      else if (m.k === 'err') report.errors.push(m.m!);
      else if (m.k === 'open') report.epochs.push(m.e!);
    }
    for (const w of waiters) w();
  });
  return {
    child,
    report,
    until: (test, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`consumer ${child.pid} did not get what was awaited within ${timeoutMs} ms: ${summary(report)}`));
        }, timeoutMs);
        const check = (): void => {
          if (test(report)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          } else if (exited) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`consumer ${child.pid} exited (${child.exitCode ?? child.signalCode}) before it got what was awaited: ${summary(report)}`));
          }
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      if (!exited) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exit;
        clearTimeout(timer);
      }
    },
  };
}
