import { type MarketEntry, readEntry } from '../marketEntry';
import { openRedis, type RedisClient, whenReady } from './openRedis';
import type { RelayReaderConfig } from './relayReaderConfig';
import { endWait, MAX_RETRY_MS, MIN_RETRY_MS, sleep, type Wait } from './retryWait';
import type { ShardLoop } from './shardLoop';

/** What a {@link ReadLoop} reads and tells of its reader (`RelayReader`). @internal */
export interface ReadHost {
  readonly config: RelayReaderConfig;
  readonly cursors: Map<number, string>;
  /** One entry of a shard read by the loop (`undefined`: unreadable). */
  entry(shard: number, id: string, entry: MarketEntry | undefined): void;
  commandClient(): Promise<RedisClient>;
  /** Whether the shard's stream is behind its cursor (then it reads on from its newest entry, inside a gap). */
  behind(shard: number, key: string, command: RedisClient): Promise<boolean>;
  /** Stops `loop` and forgets it. */
  dropLoop(loop: ReadLoop): void;
}

/**
 * A blocking `XREAD` loop on a connection of its own over a set of shards (each from its cursor): every shard of
 * interest when Redis is a single server (one round trip brings the entries of every shard that has some, so a
 * consumer writes one command where it wrote one per shard: each `XREAD` written costs a system call and a wake-up
 * of Redis, most of a consumer's cost beyond a direct subscriber's), one shard when it is a cluster (a command's keys
 * share one slot). Shards join while it is not blocked; a shard that becomes ready while it is blocked needs a new
 * loop (see `RelayReader.shardReady`).
 * @internal
 */
export class ReadLoop {
  stopped = false;
  /** A read is in flight: the shards it reads are fixed until it returns. */
  private reading = false;
  private readonly conn: RedisClient;
  private readonly shards = new Set<ShardLoop>();
  private waiting: Wait | undefined;

  constructor(
    private readonly reader: ReadHost,
    shards: Iterable<ShardLoop>,
    name: string,
  ) {
    for (const s of shards) this.shards.add(s);
    this.conn = openRedis(reader.config.target, name);
    this.conn.on('error', () => undefined); // read failures are reported by the loop itself
    this.run().catch((e: unknown) => reader.config.onError('xread', e));
  }

  /** The shards it reads that are still wanted. */
  live(): ShardLoop[] {
    return [...this.shards].filter((s) => !s.stopped);
  }

  has(shard: ShardLoop): boolean {
    return this.shards.has(shard);
  }

  /** Adds `shard` to the next read; false when a read is in flight (then it is not added). */
  add(shard: ShardLoop): boolean {
    if (this.reading || this.stopped) return false;
    this.shards.add(shard);
    return true;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.conn.disconnect();
    this.conn.emit('end');
    endWait(this.waiting);
  }

  /** Resolves when the loop's connection is ready (at once if it is), or it stopped. */
  private connected(): Promise<void> {
    return whenReady(this.conn, () => this.stopped);
  }

  private async run(): Promise<void> {
    const { reader } = this;
    const { blockMs, count, scheduler } = reader.config;
    let wait = MIN_RETRY_MS;
    while (!this.stopped) {
      // Reading only on a ready connection: a failed read costs a backoff, which a small retention may not forgive.
      await this.connected();
      if (this.stopped) return;
      for (const s of this.shards) if (s.stopped) this.shards.delete(s); // (a shard cancelled, maybe wanted again by a loop of its own)
      const shards = [...this.shards];
      if (shards.length === 0) return reader.dropLoop(this);
      const args: (string | number)[] = ['COUNT', count, 'BLOCK', blockMs, 'STREAMS'];
      for (const s of shards) args.push(s.key);
      for (const s of shards) args.push(reader.cursors.get(s.shard) ?? '$');
      let reply: [string, [string, string[]][]][] | null;
      this.reading = true;
      try {
        reply = (await this.conn.xread(...(args as ['COUNT', number, 'BLOCK', number, 'STREAMS', ...string[]]))) as typeof reply;
        wait = MIN_RETRY_MS;
        reader.config.onRecovered();
      } catch (e) {
        this.reading = false;
        if (this.stopped) return;
        reader.config.onError('xread', e);
        await sleep(scheduler, wait, (w) => (this.waiting = w));
        wait = Math.min(wait * 2, MAX_RETRY_MS);
        continue;
      }
      this.reading = false;
      const now = scheduler.now();
      for (const [key, entries] of reply ?? []) {
        const shard = shards.find((s) => s.key === key);
        if (shard === undefined) continue;
        shard.quietSince = now;
        for (let i = 0; i < entries.length; i++) {
          // A loop stopped meanwhile (a gap reset its socket) leaves the rest unread: the next socket reads them.
          if (this.stopped) return;
          // A shard no longer wanted (its last topic cancelled) is not read on: a later `sub` starts it afresh.
          if (shard.stopped) break;
          const [id, fields] = entries[i]!;
          // Handled entries are let go at once, not held by the reply until its last one is handled: a scavenge
          // while a long reply is handled (a consumer catching up) would copy them, and a second one promote them.
          entries[i] = undefined as never;
          reader.cursors.set(shard.shard, id);
          reader.entry(shard.shard, id, readEntry(fields));
        }
      }
      // A shard that brought nothing for `blockMs`: is its stream behind its cursor (new entries below it never come)?
      for (const s of shards) {
        if (this.stopped) return;
        if (s.stopped || now - s.quietSince < blockMs) continue;
        s.quietSince = now;
        try {
          if (await reader.behind(s.shard, s.key, await reader.commandClient())) return;
        } catch (e) {
          if (this.stopped) return;
          reader.config.onError('xrevrange', e);
        }
      }
    }
  }
}
