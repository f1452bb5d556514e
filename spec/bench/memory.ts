import { filter, firstValueFrom, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { SYMBOL } from './frames';
import type { Pusher } from './pusherClient';
import { heapAfterGc, now, sleep, tick, until } from './stats';

export interface MemoryRow {
  readonly case: string;
  readonly cycles: number;
  /** Heap used after a full GC, before and after, in MB (NaN without `--expose-gc`). */
  readonly heapBeforeMb: number;
  readonly heapAfterMb: number;
  readonly growthMb: number;
  /** Wall time of the cycles, ms. */
  readonly ms: number;
  readonly note: string;
}

const Ctor = WebSocket as unknown as WebSocketCtor;
const mb = (bytes: number): number => Math.round((bytes / 1e6) * 100) / 100;

/**
 * Market streams with unpaced (re)subscriptions and immediate reconnects, so the cycles run at full speed; one
 * topic a frame (`maxSymbolsPerFrame: 1`): the cases count `sub` frames at the server.
 */
function market(pusher: Pusher): MarketStreams {
  return marketStreams({
    url: pusher.url + '/quote/ws/v1',
    WebSocketCtor: Ctor,
    resubscribeRatePerSecond: 1e9,
    subscribeBurst: 1_000_000,
    maxSymbolsPerFrame: 1,
    connection: { reconnect: { minDelayMs: 0, maxDelayMs: 1 } },
  });
}

const opened = (m: MarketStreams, epoch: number): Promise<unknown> =>
  firstValueFrom(m.status$.pipe(filter((s) => s.connection.type === 'open' && s.connection.epoch >= epoch)));

async function row(name: string, cycles: number, note: string, run: () => Promise<void>): Promise<MemoryRow> {
  const before = await heapAfterGc();
  const start = now();
  await run();
  const ms = Math.round(now() - start);
  const after = await heapAfterGc();
  return { case: name, cycles, heapBeforeMb: mb(before), heapAfterMb: mb(after), growthMb: mb(after - before), ms, note };
}

/**
 * Heap growth after `cycles` subscribe/unsubscribe cycles of one topic, on a connection that another
 * topic keeps open. A cycle subscribes and leaves in the same tick: since issue 27 its `sub` waits for the end of
 * the tick to share a frame, and a request given up before its frame left sends nothing, so the case measures the
 * topic's lifecycle (router, batcher, shared observables) without frames. A warm-up of 1 000 cycles comes first.
 */
export async function subscribeCycles(pusher: Pusher, cycles: number): Promise<MemoryRow> {
  const m = market(pusher);
  const anchor = m.depth('ANCHOR').subscribe();
  await opened(m, 1);
  const cycle = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      m.trades(SYMBOL).subscribe().unsubscribe();
      if (i % 100 === 99) await tick();
    }
  };
  await cycle(1000);
  await pusher.stats(true);
  const r = await row('subscribe/unsubscribe cycles (marketStreams.trades)', cycles, '', () => cycle(cycles));
  await sleep(50);
  const { subs } = await pusher.stats();
  anchor.unsubscribe();
  return { ...r, note: `${subs} sub frames reached the server` };
}

/** Heap growth after `cycles` server-side closes (code 1012), each followed by a reconnect and a resubscription. */
export async function reconnectCycles(pusher: Pusher, cycles: number): Promise<MemoryRow> {
  const m = market(pusher);
  const sub = m.trades(SYMBOL).subscribe();
  await opened(m, 1);
  let epoch = 1;
  const cycle = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      await pusher.kick();
      epoch++;
      await opened(m, epoch);
    }
  };
  await cycle(50);
  const r = await row('reconnects (server close 1012 → reconnect → resubscribe)', cycles, '', () => cycle(cycles));
  sub.unsubscribe();
  return { ...r, note: `${Math.round((r.ms / cycles) * 100) / 100} ms per reconnect` };
}

/** `topics` topic subscriptions on one connection: time until the server has seen every `sub`, heap per topic. */
export async function manyTopics(pusher: Pusher, topics: number): Promise<MemoryRow> {
  const m = market(pusher);
  const anchor = m.depth('ANCHOR').subscribe();
  await opened(m, 1);
  await pusher.stats(true);
  const subs: Subscription[] = [];
  let subscribeMs = 0;
  const r = await row(`${topics} topic subscriptions on one connection`, topics, '', async () => {
    const start = now();
    for (let i = 0; i < topics; i++) subs.push(m.trades(`SYM${i}USDT`).subscribe());
    await until(async () => (await pusher.stats()).subs >= topics, 20_000, 'all sub frames');
    subscribeMs = now() - start;
  });
  for (const s of subs) s.unsubscribe();
  anchor.unsubscribe();
  return {
    ...r,
    note: `all ${topics} sub frames at the server in ${Math.round(subscribeMs)} ms (unpaced); ~${Math.round(((r.growthMb * 1e6) / topics / 1024) * 10) / 10} KB per live topic`,
  };
}
