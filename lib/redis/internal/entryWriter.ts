import { Redis } from 'ioredis';
import { type SchedulerLike, Subscription } from 'rxjs';
import { entryFields, type MarketEntry, pushPayload } from '../marketEntry';
import { compareIds, lastField, lastKey, streamKey } from '../marketKeys';
import type { RedisClient } from './openRedis';
import { DROPPED, type Pending, renumberQueue } from './pendingEntry';
import { StreamIds } from './streamIds';
import { scheduleRepeating } from '../../internal/scheduleRepeating';

/**
 * The gateway's writer (notes/scaling.md, "Key layout and why" and "Failures"): entries wait in one bounded queue, each with
 * the stream id the gateway gave it; whatever one event-loop turn queued leaves as one batch of commands per shard
 * (one `HSET key:last topic|symbol id ...` with the newest id of each topic of the batch, then `XADD key MAXLEN ~
 * maxLen id ...` for each entry: one round trip, since the ids are known before the write). The `HSET` goes first:
 * Redis runs other clients' commands between a batch's, and a consumer that joins reads the stream's newest entry
 * (where it starts) and then the topic's latest id (what it delivers at once). With the `HSET` last, it could find
 * an entry of the batch in the stream and the topic's previous id in the hash: it delivered that older frame and
 * started after the newer one, which it never delivered (seen with 8 consumers on a loaded machine). With the `HSET`
 * first, an id of the hash may be ahead of the stream for a moment, never behind it: the consumer then leaves that
 * entry to its read loop. The hash never moves back: a retry sets only the topics no later write has set.
 * Two writes in flight at most
 * (a frame need not wait for the previous write's reply); while Redis is down the queue holds up to `maxQueued`
 * entries, later frames are dropped and counted, and a `gap` entry goes to every shard once writing works again.
 *
 * A batch whose write failed is written again with the same ids, so a retry never duplicates an entry (Redis refuses
 * an id "equal or smaller" than the stream's newest). What the retry finds refused is looked up (`XRANGE key id id`
 * in the same batch): there, it was written by the attempt that failed to answer; not there, a later entry got in
 * before it (a write in flight after it succeeded, a command-level error on it alone): it is lost, counted as dropped
 * and reported, and consumers see the hole in the shard's sequence. Retries keep the order of the flights they come
 * from, and nothing new leaves until every flight has settled and the retries have gone first.
 *
 * With `push` (a single Redis), each entry is also published on its stream's channel right after its `XADD`, in the
 * same write (`PUBLISH key payload`; not a retry: whether it is in the stream is not known): consumers get it pushed,
 * not by an `XREAD` of their own per entry. Redis runs the two in order, so an entry pushed is in the stream (unless
 * its `XADD` alone failed: consumers then find a hole in the stream, never an entry missing from their reads). A
 * failed `PUBLISH` costs the consumers latency, not entries (they read the stream when pushes skip one): reported once
 * per run of failures.
 *
 * @internal
 * @module
 */

/** Entries per batch at most. */
const MAX_BATCH = 2000;
/** Wait before writing again after a write failed while the client said it was ready, in ms. */
const RETRY_MS = 200;
/** Writes (batches of commands, one per shard) in flight at most. */
const MAX_FLIGHTS = 2;

/** A command's outcome as a pipeline gives it: `[null, reply]` or `[error, null]` (never rejects). */
function settled(command: Promise<unknown>): Promise<[Error | null, unknown]> {
  return command.then(
    (reply): [Error | null, unknown] => [null, reply],
    (e: unknown): [Error | null, unknown] => [e instanceof Error ? e : new Error(String(e)), null],
  );
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
  /** Publish each entry on its stream's channel too (a single Redis only). */
  readonly push: boolean;
  /** Longest wait for the answer to a write, ms: past it the connection is taken for dead and made again. */
  readonly answerTimeoutMs: number;
  /** A write succeeded (the errors of an episode are over). */
  readonly onRecovered: () => void;
}

/** See the module. @internal */
export class EntryWriter {
  written = 0;
  dropped = 0;
  private queue: Pending[] = [];
  /** Entries of the batches in flight. */
  private inFlight = 0;
  /** Entries of settled flights to write again, in the order they left; they go first once every flight settled. */
  private retries: Pending[] = [];
  /** The flights settle one after the other, in the order they left (so their retries stay in order). */
  private settled: Promise<void> = Promise.resolve();
  private readonly seq: number[];
  /** The stream ids given per shard. */
  private readonly ids: StreamIds;
  /** Per `topic|symbol`: the id of its last frame (`0-0` when that one was dropped), each entry's `p`. */
  private readonly prevOf = new Map<string, string>();
  /** Per `topic|symbol`: the newest id an `HSET` of `:last` wrote (a retry never sets an older one). */
  private readonly lastWritten = new Map<string, string>();
  private drop: { fromMs: number; toMs: number; count: number } | undefined;
  private pending: Subscription | undefined;
  private stopped = false;
  /** The batches in flight: when each left (scheduler ms), oldest first (they settle in the order they left). */
  private readonly flights: number[] = [];
  /** The check of the oldest write's answer, while writes are in flight (see `watch`). */
  private watchdog: Subscription | undefined;
  /** The start of the write whose silence made the connection again (once per write). */
  private silencedAt: number | undefined;
  /** Shards where Redis refused an entry on its first attempt (an id above ours in the stream): queued ones get new ids. */
  private readonly renumber = new Set<number>();
  /** Per shard: the id of the newest entry written (a refused entry below it can no longer go in its place). */
  private readonly writtenTop: string[];
  /** A `PUBLISH` failed and none succeeded since (failures are reported once per run). */
  private publishFailing = false;
  private readonly published = (): void => {
    this.publishFailing = false;
  };
  private readonly publishFailed = (e: unknown): void => {
    if (this.publishFailing) return;
    this.publishFailing = true;
    this.config.onError('publish', e);
  };

  constructor(private readonly config: EntryWriterConfig) {
    this.seq = new Array<number>(config.shards).fill(0);
    this.ids = new StreamIds(config.shards);
    this.writtenTop = new Array<string>(config.shards).fill('0-0');
  }

  /** Entries waiting (queued or being written). */
  get queued(): number {
    return this.queue.length + this.inFlight + this.retries.length;
  }

  /**
   * Ids of later entries will be above `id` in `shard` (the stream's newest entry, read at start, or after Redis
   * refused an id as "equal or smaller"). One ahead of the gateway's clock (another client wrote it, or this machine's
   * clock stepped back) is said on `errors$`: the gateway writes above it (`ms-seq` with that `ms`, the sequence going
   * on) until its clock passes it.
   */
  raiseFloor(shard: number, id: string): void {
    const m = this.ids.raise(shard, id);
    if (m === undefined) return;
    const ahead = m - this.config.scheduler.now();
    if (ahead > 0) {
      const key = streamKey(this.config.prefix, shard);
      const why = `the stream ${key} holds the id ${id}, ${Math.round(ahead)} ms ahead of this gateway's clock (written by another client, or the clock stepped back)`;
      this.config.onError('xadd', new Error(`${why}: writing above it from now on`));
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
    const id = this.ids.next(shard, at);
    const prev = this.prevOf.get(field);
    this.prevOf.set(field, id);
    this.push(shard, id, { kind: 'message', seq, receivedAt: at, symbol, topic, frame, prev }, field);
  }

  /** Queues a control entry on every shard (never dropped), each with its shard's next sequence number. */
  control(make: (seq: number) => MarketEntry, at: number, restart = false): void {
    for (let shard = 0; shard < this.config.shards; shard++) {
      if (restart) this.seq[shard] = 0;
      const entry = make(++this.seq[shard]!);
      this.push(shard, this.ids.next(shard, at), { ...entry, receivedAt: at } as MarketEntry, undefined);
    }
  }

  /** Stops writing (what is queued stays unwritten). */
  stop(): void {
    this.stopped = true;
    this.pending?.unsubscribe();
    this.pending = undefined;
    this.watchdog?.unsubscribe();
    this.watchdog = undefined;
  }

  /** Writes what is queued now (called when Redis is ready again). */
  kick(): void {
    this.schedule(0);
  }

  private push(shard: number, id: string, entry: MarketEntry, last: string | undefined): void {
    this.queue.push({ shard, id, entry, fields: entryFields(entry), last, attempted: false });
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.pending !== undefined || this.flights.length >= MAX_FLIGHTS || this.retries.length > 0 || this.stopped) return;
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
    if (this.queue.length === 0 || this.stopped || client.status !== 'ready' || this.flights.length >= MAX_FLIGHTS || this.retries.length > 0) return;
    const batch = this.queue.splice(0, MAX_BATCH);
    this.flights.push(this.config.scheduler.now());
    this.inFlight += batch.length;
    this.watch();
    const written = this.write(batch);
    // Alone in flight, it settles when written; else after the flight before it.
    const ready = this.flights.length === 1 ? written : this.settled.then(() => written);
    this.settled = ready.then((retry) => this.settle(batch.length, retry)).catch((e: unknown) => this.config.onError('xadd', e));
  }

  /**
   * While writes are in flight, checks every quarter of `answerTimeoutMs` that the oldest was answered in time (one
   * timer, not one a write). A link gone silent (a dead NAT entry, a stalled peer: nothing closed, nothing answered)
   * holds a write for as long as TCP takes to give up (~15 min): past the deadline the connection is made again (a
   * cluster: each node's), its commands fail at once and go back as retries (each looked up before it counts as
   * written: none is written twice).
   */
  private watch(): void {
    if (this.watchdog !== undefined || this.stopped) return;
    const { scheduler, answerTimeoutMs } = this.config;
    const period = Math.max(10, answerTimeoutMs / 4);
    // A fresh action per run (scheduleRepeating): `this.schedule` would chain one action per run on a virtual scheduler.
    this.watchdog = scheduleRepeating(
      scheduler,
      () => {
        const oldest = this.flights[0];
        if (this.stopped || oldest === undefined) return void (this.watchdog = undefined); // idle: no timer
        if (scheduler.now() - oldest >= answerTimeoutMs && this.silencedAt !== oldest) {
          this.silencedAt = oldest;
          this.config.onError('connection', new Error(`no answer from Redis in ${answerTimeoutMs} ms: connecting again`));
          this.config.client.disconnect(true);
        }
        return period;
      },
      period,
    );
  }

  /** A flight of `sent` entries settled; `retry`: those to write again. */
  private settle(sent: number, retry: Pending[]): void {
    const { client } = this.config;
    this.flights.shift();
    this.inFlight -= sent;
    for (const p of retry) this.retries.push(p);
    if (retry.length < sent && this.drop !== undefined) {
      const { fromMs, toMs, count } = this.drop;
      this.drop = undefined;
      this.control((seq) => ({ kind: 'gap', seq, receivedAt: 0, reason: 'redis', fromMs, toMs, dropped: count }), toMs);
    }
    this.config.onChange();
    if (this.retries.length === 0) return this.schedule(0);
    if (this.flights.length > 0) return; // the last flight to settle puts the retries back
    this.queue = this.retries.concat(this.queue);
    this.retries = [];
    const renumbered = this.renumber.size > 0;
    if (renumbered) this.renumberRefused();
    if (client.status === 'ready') this.schedule(renumbered ? 0 : RETRY_MS);
    // else: `kick()` on the client's next 'ready'
  }

  /** New ids for the queued entries of the shards where Redis refused an entry's first attempt (see `renumberQueue`). */
  private renumberRefused(): void {
    const { kept, lost, firstLost } = renumberQueue(this.queue, this.renumber, this.writtenTop, this.ids, this.prevOf);
    this.renumber.clear();
    this.queue = kept;
    if (firstLost === undefined) return;
    this.dropped += lost;
    this.config.onError('xadd', new Error(`entry ${firstLost} refused (an id of another client at or above it) while a later one was written: lost`));
    this.config.onChange();
  }

  /** Whether `id` is newer than what an `HSET` of `:last` wrote for `field` (the hash never moves back). */
  private newerThanWritten(field: string, id: string): boolean {
    const written = this.lastWritten.get(field);
    return written === undefined || compareIds(id, written) > 0;
  }

  /** Writes `batch`; resolves with the entries to write again (never rejects). */
  private async write(batch: Pending[]): Promise<Pending[]> {
    const { client, push } = this.config;
    const byShard = new Map<number, Pending[]>();
    for (const p of batch) {
      const list = byShard.get(p.shard);
      if (list) list.push(p);
      else byShard.set(p.shard, [p]);
    }
    const retry: Pending[] = [];
    // The batch's commands leave in one socket write (a single Redis; a cluster writes to each node's own socket):
    // ioredis writes each command on its own, a system call and a TCP segment each, which Redis reads and answers one
    // by one. Side by side at issue 28's venue (two gateways, one simulator, `--compare-gateway`, 4 windows): the
    // gateway's CPU per entry 10-14 % lower in every window, its entries read as soon.
    const socket = client instanceof Redis ? client.stream : undefined;
    const publisher = push && client instanceof Redis ? client : undefined;
    socket?.cork();
    let writes: Promise<void>[];
    try {
      writes = [...byShard].map(([shard, entries]) => this.writeShard(shard, entries, publisher, retry));
    } finally {
      socket?.uncork();
    }
    await Promise.all(writes);
    // Order matters within a shard only (each is its own stream): `retry` keeps each shard's entries in order.
    return retry;
  }

  /**
   * Writes one shard's entries of a batch: its commands are issued at once, in order (before the first `await`, so
   * inside the batch's corked socket write); the entries to write again go to `retry`.
   */
  private async writeShard(shard: number, entries: Pending[], publisher: Redis | undefined, retry: Pending[]): Promise<void> {
    const { client, prefix, maxLen } = this.config;
    // Plain commands, issued in order on the one connection (ioredis writes them in that order; on a cluster, to
    // the shard's node: its keys share the hash tag), not an ioredis pipeline: with pipelines every frame written
    // and every command survived the gateway's scavenges (2.5 MB promoted per scavenge at the venue rate,
    // pauses of 5-14 ms; 17 KB and 2-8 ms with plain commands, the CPU per entry no higher).
    const key = streamKey(prefix, shard);
    const calls: Promise<[Error | null, unknown]>[] = [];
    // Each topic's newest id of the batch, in one HSET before the XADDs (see the module; an HSET per entry was half
    // the commands). Not a topic that a write since has set to a newer id (this batch is a retry behind it).
    const lasts = new Map<string, string>();
    for (const p of entries) if (p.last !== undefined) lasts.set(p.last, p.id);
    const pairs: string[] = [];
    for (const [field, id] of lasts) if (this.newerThanWritten(field, id)) pairs.push(field, id);
    const hset = pairs.length > 0 ? settled(client.hset(lastKey(prefix, shard), ...pairs)) : undefined;
    for (const p of entries) {
      calls.push(settled(client.xadd(key, 'MAXLEN', '~', maxLen, p.id, ...p.fields)));
      // a retry: whether the stream holds it, should it be refused
      if (p.attempted) calls.push(settled(client.xrange(key, p.id, p.id)));
      else if (publisher !== undefined) publisher.publish(key, pushPayload(p.id, p.fields)).then(this.published, this.publishFailed);
    }
    const results = await Promise.all(calls);
    const [hsetError] = (await hset) ?? [null];
    for (let i = 0; hsetError === null && i < pairs.length; i += 2) {
      if (this.newerThanWritten(pairs[i]!, pairs[i + 1]!)) this.lastWritten.set(pairs[i]!, pairs[i + 1]!);
    }
    // A failed HSET alone (its XADDs written): late joiners start from an older latest until the topic's next write.
    const reported = hsetError !== null && results.every(([error]) => error === null);
    if (reported) this.config.onError('hset', hsetError);
    if (this.judge(shard, entries, results, reported, retry)) await this.refloor(shard, key);
  }

  /**
   * What the answers of one shard's write (`results`: each entry's `XADD`, and a retry's lookup after it) say of each
   * entry: written, lost, or to write again (pushed to `retry`). `reported`: a failure of this write was said already
   * (one a write). True when Redis refused a first attempt's id (an id above ours in the stream).
   */
  private judge(shard: number, entries: Pending[], results: [Error | null, unknown][], reported: boolean, retry: Pending[]): boolean {
    let at = 0;
    let refused = false;
    let wrote = false;
    for (const p of entries) {
      const result = results[at++];
      const held = p.attempted ? results[at++] : undefined;
      const error = result?.[0] ?? null;
      if (error === null) {
        this.written++;
        wrote = true;
        if (compareIds(p.id, this.writtenTop[shard]!) > 0) this.writtenTop[shard] = p.id;
        continue;
      }
      if (/equal or smaller/i.test(error.message)) {
        if (!p.attempted) {
          // An id above ours in the stream (another client's entry, a clock stepped back, two gateways on one
          // prefix): not written, so it is written again with a new id above the stream's newest (`renumber`).
          refused = true;
          retry.push(p);
          continue;
        }
        if (held?.[0] === null) {
          if (Array.isArray(held[1]) && held[1].length > 0) {
            this.written++; // by the attempt whose answer was lost
            continue;
          }
          this.dropped++;
          if (!reported) this.config.onError('xadd', new Error(`entry ${p.id} refused on a retry and not in the stream: lost (a later entry was written before it)`));
          reported = true;
          continue;
        }
        // the lookup failed: again
      } else if (!reported) {
        reported = true;
        this.config.onError('xadd', error);
      }
      p.attempted = true;
      retry.push(p);
    }
    if (wrote) this.config.onRecovered();
    return refused;
  }

  /** Redis refused an id of `shard`'s stream `key`: where the stream stands; the entries refused, and those queued after them, go above it. */
  private async refloor(shard: number, key: string): Promise<void> {
    const [topError, top] = await settled(this.config.client.xrevrange(key, '+', '-', 'COUNT', 1));
    const id = topError === null && Array.isArray(top) ? (top as [string, unknown][])[0]?.[0] : undefined;
    if (id !== undefined) this.raiseFloor(shard, id);
    else this.config.onError('xrevrange', topError ?? new Error(`the stream ${key} refused an id and has no entry`));
    this.renumber.add(shard);
  }
}
