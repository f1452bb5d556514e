import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

/** The parent's handle on the pusher process (see `pusher.ts`). */
export interface Pusher {
  readonly url: string;
  /** Sends `count` copies of `frame` (text, or base64 of binary) as fast as the socket drains. */
  push(frame: string, count: number, binary?: boolean): Promise<void>;
  /** Sends `count` frames at `ratePerSecond`, each with its send time spliced in. */
  steady(template: string, ratePerSecond: number, count: number): Promise<void>;
  /** Closes every client socket from the server side. */
  kick(): Promise<void>;
  /** Client frames seen since the last reset: `sub` requests and all. */
  stats(reset?: boolean): Promise<{ subs: number; received: number }>;
  close(): Promise<void>;
}

type Reply = { type: 'ready'; port: number } | { type: 'done' } | { type: 'kicked' } | { type: 'stats'; subs: number; received: number };

export async function startPusher(): Promise<Pusher> {
  const child: ChildProcess = fork(path.join(__dirname, 'pusher.ts'), [], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters: Array<(r: Reply) => void> = [];
  child.on('message', (r: Reply) => waiters.shift()?.(r));
  const next = (): Promise<Reply> => new Promise((resolve) => waiters.push(resolve));
  const request = async (order: unknown): Promise<Reply> => {
    const reply = next();
    child.send(order as never);
    return reply;
  };
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('pusher did not start');
  return {
    url: `ws://127.0.0.1:${ready.port}`,
    push: async (frame, count, binary = false) => void (await request({ type: 'push', frame, count, binary })),
    steady: async (template, ratePerSecond, count) => void (await request({ type: 'steady', template, ratePerSecond, count })),
    kick: async () => void (await request({ type: 'kick' })),
    stats: async (reset = false) => {
      const r = await request({ type: reset ? 'reset' : 'stats' });
      return r.type === 'stats' ? { subs: r.subs, received: r.received } : { subs: 0, received: 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'exit' });
      }),
  };
}
