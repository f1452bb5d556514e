import { type SchedulerLike, Subscription } from 'rxjs';
import { entryFields, type MarketEntry } from '../marketEntry';
import { lastField, lastKey, streamKey } from '../marketKeys';
import type { RedisClient } from './openRedis';

/**
 * The gateway's writer (docs/scaling.md, "Key layout" and "Failures"): entries wait in one bounded queue, each with
 * the stream id the gateway gave it; whatever one event-loop turn queued leaves in one pipeline per shard
 * (`XADD key MAXLEN ~ maxLen id ...` and, for data, `HSET key:last topic|symbol id`: one round trip, since the id
 * is known before the write). One write in flight at a time; while Redis is down the queue holds up to
 * `maxQueued` entries, later frames are dropped and counted, and a `gap` entry goes to every shard once writing
 * works again. A batch whose write failed is written again with the same ids: what had reached Redis is refused
 * as "equal or smaller" and counted as written, so a retry never duplicates an entry.
 *
 * @internal
 * @module
 */

/** Entries per pipeline at most. */
const MAX_BATCH = 2000;
/** The `p` of an entry whose topic's previous frame was dropped (no entry has this id). */
const DROPPED = '0-0';
/** Wait before writing again after a write failed while the client said it was ready, in ms. */
const RETRY_MS = 200;

interface Pending {
  readonly shard: number;
  readonly id: string;
  readonly fields: readonly string[];
  /** `topic|symbol` of a data entry (its `:last` field). */
  readonly last: string | undefined;
  attempted: boolean;
}

/** Settings of an {@link EntryWriter}. @internal */
export interface EntryWriterConfig {
  readonly client: RedisClient;
  readonly prefix: string;
  readonly shards: number;
  readonly maxLen: number;
  readonly maxQueued: number;
  readonly scheduler: SchedulerLike;
  /** A write failed (reported on the gateway's `errors$`). */
  readonly onError: (operation: string, error: unknown) => void;
  /** Counters changed (after a write, a drop). */
  readonly onChange: () => void;
}

/** See the module. @internal */
export class EntryWriter {
  written = 0;
  dropped = 0;
  private queue: Pending[] = [];
  private inFlight = 0;
  private readonly seq: number[];
  private readonly lastMs: number[];
  private readonly lastSub: number[];
  /** Per `topic|symbol`: the id of its last frame (`0-0` when that one was dropped), each entry's `p`. */
  private readonly prevOf = new Map<string, string>();
  private drop: { fromMs: number; toMs: number; count: number } | undefined;
  private pending: Subscription | undefined;
  private stopped = false;

  constructor(private readonly config: EntryWriterConfig) {
    this.seq = new Array<number>(config.shards).fill(0);
    this.lastMs = new Array<number>(config.shards).fill(0);
    this.lastSub = new Array<number>(config.shards).fill(-1);
  }

  /** Entries waiting (queued or being written). */
  get queued(): number {
    return this.queue.length + this.inFlight;
  }

  /** Ids of later entries will be above `id` in `shard` (the stream's newest entry, read at start). */
  raiseFloor(shard: number, id: string): void {
    const [ms = '0', sub = '0'] = id.split('-');
    const m = Number(ms);
    const s = Number(sub);
    if (m > (this.lastMs[shard] ?? 0) || (m === this.lastMs[shard] && s > (this.lastSub[shard] ?? -1))) {
      this.lastMs[shard] = m;
      this.lastSub[shard] = s;
    }
  }

  /** Queues a data frame of `symbol`'s `topic` for `shard`, or drops it (queue full). */
  message(shard: number, symbol: string, topic: string, frame: string, at: number): void {
    const field = lastField(topic, symbol);
    if (this.queued >= this.config.maxQueued) {
      this.drop = this.drop ? { ...this.drop, toMs: at, count: this.drop.count + 1 } : { fromMs: at, toMs: at, count: 1 };
      this.dropped++;
      this.prevOf.set(field, DROPPED);
      this.config.onChange();
      return;
    }
    const seq = ++this.seq[shard]!;
    const id = this.nextId(shard, at);
    const prev = this.prevOf.get(field);
    this.prevOf.set(field, id);
    this.push(shard, id, { kind: 'message', seq, receivedAt: at, symbol, topic, frame, prev }, field);
  }

  /** Queues a control entry on every shard (never dropped), each with its shard's next sequence number. */
  control(make: (seq: number) => MarketEntry, at: number, restart = false): void {
    for (let shard = 0; shard < this.config.shards; shard++) {
      if (restart) this.seq[shard] = 0;
      const entry = make(++this.seq[shard]!);
      this.push(shard, this.nextId(shard, at), { ...entry, receivedAt: at } as MarketEntry, undefined);
    }
  }

  /** Stops writing (what is queued stays unwritten). */
  stop(): void {
    this.stopped = true;
    this.pending?.unsubscribe();
    this.pending = undefined;
  }

  /** Writes what is queued now (called when Redis is ready again). */
  kick(): void {
    this.schedule(0);
  }

  private push(shard: number, id: string, entry: MarketEntry, last: string | undefined): void {
    this.queue.push({ shard, id, fields: entryFields(entry), last, attempted: false });
    this.schedule(0);
  }

  /** The next stream id of `shard`: `ms-0` at a new millisecond, else the sub-sequence goes on (ids only grow). */
  private nextId(shard: number, at: number): string {
    const lastMs = this.lastMs[shard] ?? 0;
    if (at > lastMs) {
      this.lastMs[shard] = at;
      this.lastSub[shard] = 0;
      return `${at}-0`;
    }
    const sub = (this.lastSub[shard] ?? -1) + 1;
    this.lastSub[shard] = sub;
    return `${lastMs}-${sub}`;
  }

  private schedule(delayMs: number): void {
    if (this.pending !== undefined || this.inFlight > 0 || this.stopped) return;
    if (delayMs === 0) {
      // Right after the frames at hand (those one socket read delivers together go in one batch), not after a 0 ms
      // timer: Node's timers wait at least 1 ms, which was most of the latency the relay added on a quiet machine.
      const pending = new Subscription();
      this.pending = pending;
      void Promise.resolve().then(() => {
        if (pending.closed) return;
        this.pending = undefined;
        this.flush();
      });
      return;
    }
    this.pending = this.config.scheduler.schedule(() => {
      this.pending = undefined;
      this.flush();
    }, delayMs);
  }

  private flush(): void {
    const { client } = this.config;
    if (this.queue.length === 0 || this.stopped || client.status !== 'ready') return;
    const batch = this.queue.splice(0, MAX_BATCH);
    this.inFlight = batch.length;
    void this.write(batch).then((retry) => {
      this.inFlight = 0;
      if (retry.length > 0) this.queue = retry.concat(this.queue);
      if (retry.length < batch.length && this.drop !== undefined) {
        const { fromMs, toMs, count } = this.drop;
        this.drop = undefined;
        this.control((seq) => ({ kind: 'gap', seq, receivedAt: 0, reason: 'redis', fromMs, toMs, dropped: count }), toMs);
      }
      this.config.onChange();
      if (retry.length === 0) this.schedule(0);
      else if (client.status === 'ready') this.schedule(RETRY_MS);
      // else: `kick()` on the client's next 'ready'
    }).catch((e: unknown) => {
      this.inFlight = 0;
      this.config.onError('xadd', e);
    });
  }

  /** Writes `batch`; resolves with the entries to write again (never rejects). */
  private async write(batch: Pending[]): Promise<Pending[]> {
    const { client, prefix, maxLen } = this.config;
    const byShard = new Map<number, Pending[]>();
    for (const p of batch) {
      const list = byShard.get(p.shard);
      if (list) list.push(p);
      else byShard.set(p.shard, [p]);
    }
    const retry: Pending[] = [];
    await Promise.all(
      [...byShard].map(async ([shard, entries]) => {
        // A Redis Cluster pipeline holds keys of one slot: one pipeline per shard (its keys share the hash tag).
        const pipeline = client.pipeline();
        const key = streamKey(prefix, shard);
        const lastHash = lastKey(prefix, shard);
        for (const p of entries) {
          pipeline.xadd(key, 'MAXLEN', '~', maxLen, p.id, ...p.fields);
          if (p.last !== undefined) pipeline.hset(lastHash, p.last, p.id);
        }
        let results: [Error | null, unknown][] | null;
        try {
          results = await pipeline.exec();
        } catch (e) {
          results = null;
          this.config.onError('xadd', e);
        }
        let at = 0;
        let reported = false;
        for (const p of entries) {
          const result = results?.[at];
          at += p.last === undefined ? 1 : 2;
          const error = results === null ? new Error('pipeline failed') : (result?.[0] ?? null);
          if (error === null || (p.attempted && /equal or smaller/i.test(error.message))) {
            this.written++;
            continue;
          }
          if (!reported && results !== null) {
            reported = true;
            this.config.onError('xadd', error);
          }
          if (/equal or smaller/i.test(error.message)) {
            // Another writer's ids (a clock stepped back, two gateways on one prefix): this entry cannot be written.
            this.dropped++;
            continue;
          }
          p.attempted = true;
          retry.push(p);
        }
      }),
    );
    // Order matters within a shard only (each is its own stream): `retry` keeps each shard's entries in order.
    return retry;
  }
}
