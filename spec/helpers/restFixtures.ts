import { VirtualTimeScheduler } from 'rxjs';
import { startHttpServer, type Reply, type RecordedRequest, type TestHttpServer } from './httpServer';

/** The SPEC's example secret key (its signing example's key pair). */
export const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
/** The SPEC's example API key. */
export const API_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco5k8ZCbPYe3tS';
/** The SPEC's example timestamp. */
export const T = 1499827319559;

/** A virtual clock standing at `ms`. */
export const clockAt = (ms: number): VirtualTimeScheduler => {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = ms;
  return scheduler;
};

/** A real HTTP server on 127.0.0.1 for each test of the calling `describe` (or file), and what it replies. */
export interface ReplyingServer {
  /** The running server of the current test. */
  readonly server: TestHttpServer;
  /** What it answers; `{ ok: true }` with status 200 until a test sets another. */
  reply: (r: RecordedRequest) => Reply;
}

/** Registers `beforeEach` / `afterEach` that start and close a {@link ReplyingServer}; read it inside tests. */
export function replyingServer(): ReplyingServer {
  let current: TestHttpServer | undefined;
  const holder = {
    get server(): TestHttpServer {
      if (current === undefined) throw new Error('replyingServer: read inside a test');
      return current;
    },
    reply: (() => ({ status: 200, body: { ok: true } })) as (r: RecordedRequest) => Reply,
  };
  beforeEach(async () => {
    holder.reply = () => ({ status: 200, body: { ok: true } });
    current = await startHttpServer((r) => holder.reply(r));
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return holder;
}
