import type { SchedulerLike } from 'rxjs';
import { compareDecimal } from '../../internal/decimal';
import type { TradeGap } from '../../operators/distinctTrades';
import type { RedisTarget } from '../redisTarget';
import type { RelayGap, RelayGapReason } from '../relayGap';
import { type MarketEntry, readEntry } from '../marketEntry';
import { compareIds, lastField, lastKey, shardOf, streamKey } from '../marketKeys';
import { RedisRelayError } from '../redisRelayError';
import { openRedis, type RedisClient, whenReady } from './openRedis';
import { type PushHost, PushLoop } from './pushLoop';
import { endWait, MAX_RETRY_MS, MIN_RETRY_MS, sleep, type Wait } from './retryWait';

/**
 * The consumer's Redis side (docs/scaling.md, "What a consumer sees"): the gateway's pushes (`PushLoop`, `read: 'push'`
 * on a single Redis) or one blocking `XREAD` loop over the shards with a topic of interest, on a connection of its own
 * (a cluster: one loop and connection per shard), plus one command connection (`PING`, `HGET`, `XRANGE`, the push
 * loop's reads). It checks
 * each shard's sequence, turns control entries and holes into {@link RelayGap}s, and hands the data entries of the
 * topics of interest to the socket of the moment (`RelaySocketSink`). Cursors survive a socket lost to a gap or a
 * failure (the next socket goes on from them: nothing is skipped); a socket closed normally forgets them.
 *
 * @internal
 * @module
 */

/** The socket a reader serves. @internal */
export interface RelaySocketSink {
  /** The connection epoch it opened (the n-th relay socket to open: `marketStreams` counts its opens alike). */
  readonly epoch: number;
  /** A frame to hand over as a `message` event. */
  deliver(frame: string): void;
  /** Close it with a non-normal code: a gap, so its connection starts a new epoch. */
  reset(reason: string): void;
}

/** A topic the socket asked for. */
interface Interest {
  readonly shard: number;
  readonly symbol: string;
  readonly topic: string;
  /** The request id of the `sub` that asked for it (echoed in its frames, as the venue does). */
  id: string;
  /** The newest entry id delivered for it. */
  delivered: string;
}

/** Settings of a {@link RelayReader}. @internal */
export interface RelayReaderConfig {
  readonly target: RedisTarget;
  readonly prefix: string;
  readonly shards: number;
  readonly blockMs: number;
  readonly count: number;
  /** `push`: entries by the gateway's pushes (a single Redis; see `PushLoop`); `xread`: by blocking `XREAD`. */
  readonly read: 'push' | 'xread';
  /** The push loop's check period, ms. */
  readonly checkMs: number;
  readonly scheduler: SchedulerLike;
  readonly resumeFrom: ReadonlyMap<number, string>;
  readonly onGap: (gap: RelayGap) => void;
  /** Trades of a followed symbol that may be missing (frames of its trade topic lost on the way), as `marketStreams` signals them. */
  readonly onTradeGap: (gap: TradeGap) => void;
  readonly onError: (operation: string, error: unknown) => void;
  /** A read worked (the errors of an episode are over: the next failure is said again). */
  readonly onRecovered: () => void;
}

/**
 * How far below the next sequence number expected an entry is taken for a copy of one handled already (see
 * `RelayReader.repeat`): the entries of the gateway's two writes in flight at most.
 */
const REPEAT_WINDOW = 4_096;

/** A venue frame that is the first of a subscription (its replay of the latest trades). */
const REPLAY = /"f":\s*true/;
/** The trade ids of a trade frame (`"v":"123"` or `"v":123`), as text: exact, whatever their size. */
const TRADE_ID = /"v":\s*"?(\d+)/g;

/** The smallest and the largest trade id of a trade frame's text. @internal */
export function tradeIds(frame: string): { min: string | undefined; max: string | undefined } {
  let min: string | undefined;
  let max: string | undefined;
  for (const m of frame.matchAll(TRADE_ID)) {
    const v = m[1]!;
    if (min === undefined || compareDecimal(v, min) < 0) min = v;
    if (max === undefined || compareDecimal(v, max) > 0) max = v;
  }
  return { min, max };
}

/** The frame `frame` with its envelope's echoed request id replaced by `id` (as the venue answers this consumer's own `sub`). @internal */
export function withRequestId(frame: string, id: string): string {
  // `"id":` occurs in compact JSON only as a key (a quote inside a string is escaped), and no market record has one:
  // the last is the envelope's.
  const at = frame.lastIndexOf('"id":');
  if (at < 0) return frame;
  const start = at + 5;
  let end = start;
  if (frame.charCodeAt(start) === 34) {
    end = frame.indexOf('"', start + 1) + 1;
    if (end === 0) return frame;
  } else {
    while (end < frame.length && frame.charCodeAt(end) >= 48 && frame.charCodeAt(end) <= 57) end++;
  }
  // Joined, not concatenated: a concatenation is a cons string, which the frame parser reads ~20 % slower (socket-free,
  // 300 pairs' frames through `marketStreams`: 11.7 against 9.7 µs a frame); `join` copies into one flat string.
  return [frame.slice(0, start), frame.slice(end)].join(`"${id}"`);
}

/** One shard being read: where it starts (its cursor and sequence, found once), and whether it is still wanted. */
class ShardLoop {
  stopped = false;
  /** It knows where it starts (`ready` resolved). */
  started = false;
  /** Its stream's key (made once: the read loop names it in every `XREAD`). */
  readonly key: string;
  /** Resolves once the shard knows where it starts (or it stopped). */
  readonly ready: Promise<void>;
  /** The wait before a retry, if one is under way (a stop ends it at once: no timer outlives the loop). */
  private waiting: Wait | undefined;
  /** When its stream was last found to bring something, or checked for being behind the cursor (scheduler ms). */
  quietSince: number;

  constructor(
    private readonly reader: RelayReader,
    readonly shard: number,
  ) {
    this.quietSince = reader.config.scheduler.now();
    this.key = streamKey(reader.config.prefix, shard);
    this.ready = this.init();
    // Never a rejection left unhandled (it would end the process): whatever escapes is reported.
    this.ready
      .then(() => {
        this.started = true;
        reader.shardReady(this);
      })
      .catch((e: unknown) => reader.config.onError('xread', e));
  }

  stop(): void {
    this.stopped = true;
    endWait(this.waiting);
  }

  /** Where to start: the kept cursor, else the stream's newest entry (checked for its sequence number). */
  private async init(): Promise<void> {
    const { reader, shard, key } = this;
    for (let wait = MIN_RETRY_MS; !this.stopped; wait = Math.min(wait * 2, MAX_RETRY_MS)) {
      try {
        const cursor = reader.cursors.get(shard);
        if (cursor !== undefined && reader.expected.has(shard)) return;
        if (this.stopped) return; // (checked just before: a stopped loop opens no connection)
        const command = await reader.commandClient();
        const found = cursor === undefined ? await command.xrevrange(key, '+', '-', 'COUNT', 1) : await command.xrange(key, cursor, cursor);
        const top = found[0];
        const entry = top === undefined ? undefined : readEntry(top[1]);
        reader.config.onRecovered();
        if (cursor === undefined) reader.cursors.set(shard, top?.[0] ?? '0-0');
        else if (top === undefined) {
          // The entry to resume after is gone: trimmed (the stream is past it), or the stream is behind it.
          if (await reader.behind(shard, key, command)) return;
          reader.gap(shard, 'sequence', cursor);
        }
        reader.expected.set(shard, entry === undefined ? undefined : entry.seq + 1);
        return;
      } catch (e) {
        if (this.stopped) return;
        reader.config.onError('xrange', e);
        await sleep(reader.config.scheduler, wait, (w) => (this.waiting = w));
      }
    }
  }
}

/**
 * A blocking `XREAD` loop on a connection of its own over a set of shards (each from its cursor): every shard of
 * interest when Redis is a single server (one round trip brings the entries of every shard that has some, so a
 * consumer writes one command where it wrote one per shard: each `XREAD` written costs a system call and a wake-up
 * of Redis, most of a consumer's cost beyond a direct subscriber's), one shard when it is a cluster (a command's keys
 * share one slot). Shards join while it is not blocked; a shard that becomes ready while it is blocked needs a new
 * loop (see `RelayReader.shardReady`).
 */
class ReadLoop {
  stopped = false;
  /** A read is in flight: the shards it reads are fixed until it returns. */
  private reading = false;
  private readonly conn: RedisClient;
  private readonly shards = new Set<ShardLoop>();
  private waiting: Wait | undefined;

  constructor(
    private readonly reader: RelayReader,
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

/** See the module. @internal */
export class RelayReader implements PushHost {
  readonly cursors: Map<number, string>;
  /** The next sequence number expected per shard (`undefined`: any, the first entry read). */
  readonly expected = new Map<number, number | undefined>();
  private readonly interest = new Map<string, Interest>();
  private readonly loops = new Map<number, ShardLoop>();
  private readonly loopTopics = new Map<number, number>();
  /** The `XREAD` loops: one over every shard of interest (a single Redis), or one per shard (a cluster). */
  private readonly readLoops = new Set<ReadLoop>();
  /** Entries come by push (`read: 'push'` on a single Redis, until pushes are found not to come). */
  private pushing: boolean;
  /** The push loop, while a shard is followed by push. */
  private pushLoop: PushLoop | undefined;
  /** The command connection (`PING`, `HGET`, `XRANGE`) while a socket is attached or attaching, once ready. */
  private command: Promise<RedisClient> | undefined;
  /** Its client, from its opening on (closed when no socket is attached or attaching: none outlives the consumer). */
  private commandConn: RedisClient | undefined;
  private socket: RelaySocketSink | undefined;
  /** Sockets waiting for Redis to answer (`attach`); one detached meanwhile is never installed. */
  private readonly attaching = new Set<RelaySocketSink>();
  /** Per symbol whose trades are followed: the last trade entry delivered (kept across sockets, as the cursors). */
  private readonly tradeMarks = new Map<string, { id: string; frame: string }>();
  /** Shards whose last entry read was not one of the relay's (said on `errors$` once per run of them). */
  private readonly unreadableRun = new Set<number>();

  constructor(readonly config: RelayReaderConfig) {
    this.cursors = new Map(config.resumeFrom);
    this.pushing = config.read === 'push' && typeof config.target === 'string';
  }

  /** Pushes do not come (`why`): every shard is read by blocking `XREAD` from its cursor on, for good. @internal */
  fallBack(why: Error): void {
    if (!this.pushing) return;
    this.pushing = false;
    this.config.onError('subscribe', new Error(`reading by XREAD from now on: ${why.message}`));
    this.pushLoop?.stop();
    this.pushLoop = undefined;
    for (const loop of this.loops.values()) if (loop.started) this.shardReady(loop);
  }

  /** The command connection, once ready (rejects when it could not connect, or was closed before it was ready). */
  commandClient(): Promise<RedisClient> {
    this.command ??= new Promise<RedisClient>((resolve, reject) => {
      const client = openRedis(this.config.target, 'ex-streams-relay');
      this.commandConn = client;
      const settled = (): void => {
        client.off('ready', ready);
        client.off('error', failed);
        client.off('end', closed);
      };
      const failed = (e: unknown): void => {
        settled();
        // Forgotten only if still the current one (not one closed and replaced meanwhile); dropped at once, so that
        // ioredis schedules no reconnect.
        if (this.commandConn === client) {
          this.commandConn = undefined;
          this.command = undefined;
        }
        client.disconnect();
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      const closed = (): void => failed(new Error('Connection is closed.'));
      const ready = (): void => {
        settled();
        client.on('error', () => undefined); // later failures surface on the commands
        resolve(client);
      };
      client.once('ready', ready);
      client.once('error', failed);
      client.once('end', closed);
    });
    return this.command;
  }

  /** Closes the command connection, whatever its state (a connection not yet ready is dropped, not waited for). */
  private closeCommand(): void {
    const client = this.commandConn;
    this.commandConn = undefined;
    this.command = undefined;
    // `quit` fails at once on a connection that is not ready (no offline queue): then it is dropped.
    void client?.quit().catch(() => client.disconnect());
  }

  /** Closes the command connection when no socket is attached or attaching. */
  private closeIfIdle(): void {
    if (this.socket === undefined && this.attaching.size === 0) this.closeCommand();
  }

  /**
   * `socket` is now the one served, once Redis answers: resolves `true`, or `false` when it was detached meanwhile
   * (it is not installed then). Rejects when Redis does not answer.
   */
  async attach(socket: RelaySocketSink): Promise<boolean> {
    this.attaching.add(socket);
    try {
      await (await this.commandClient()).ping();
    } catch (e) {
      this.attaching.delete(socket);
      this.closeIfIdle();
      throw e;
    }
    if (!this.attaching.delete(socket)) return false;
    this.socket = socket;
    return true;
  }

  /**
   * `socket` is gone: its topics, its loops, and (`keepCursors` false: closed normally, no subscriber left) the
   * cursors go with it; and the command connection, when no other socket is attaching.
   */
  detach(socket: RelaySocketSink, keepCursors: boolean): void {
    this.attaching.delete(socket);
    if (this.socket === socket) {
      this.socket = undefined;
      this.interest.clear();
      this.loopTopics.clear();
      for (const loop of this.loops.values()) loop.stop();
      this.loops.clear();
      for (const loop of this.readLoops) loop.stop();
      this.readLoops.clear();
      this.pushLoop?.stop();
      this.pushLoop = undefined;
      if (!keepCursors) {
        this.cursors.clear();
        this.expected.clear();
        this.tradeMarks.clear();
      }
    }
    this.closeIfIdle();
  }

  /** The socket's `sub` of `symbol`'s `topic` with request `id`: reads its shard, delivers its latest entry at once. */
  sub(symbol: string, topic: string, id: string): void {
    const field = lastField(topic, symbol);
    const known = this.interest.get(field);
    if (known !== undefined) {
      known.id = id;
      return void this.latest(field, known);
    }
    const shard = shardOf(symbol, this.config.shards);
    const interest: Interest = { shard, symbol, topic, id, delivered: '0-0' };
    this.interest.set(field, interest);
    this.loopTopics.set(shard, (this.loopTopics.get(shard) ?? 0) + 1);
    if (!this.loops.has(shard)) this.loops.set(shard, new ShardLoop(this, shard));
    void this.latest(field, interest);
  }

  /** The socket's `cancel`: the shard's loop stops with its last topic (its cursor forgotten: a later `sub` starts afresh). */
  cancel(symbol: string, topic: string): void {
    const field = lastField(topic, symbol);
    const interest = this.interest.get(field);
    if (interest === undefined) return;
    this.interest.delete(field);
    if (topic === 'trade') this.tradeMarks.delete(symbol);
    const left = (this.loopTopics.get(interest.shard) ?? 1) - 1;
    if (left > 0) return void this.loopTopics.set(interest.shard, left);
    this.loopTopics.delete(interest.shard);
    const loop = this.loops.get(interest.shard);
    this.loops.delete(interest.shard);
    if (loop !== undefined) {
      loop.stop();
      this.pushLoop?.remove(loop);
      // A read loop left with no shard of interest ends now (its connection with it), not after its blocked read.
      for (const readLoop of this.readLoops) if (readLoop.has(loop) && readLoop.live().length === 0) this.dropLoop(readLoop);
    }
    this.cursors.delete(interest.shard);
    this.expected.delete(interest.shard);
  }

  /**
   * `loop`'s shard knows where it starts: it is read from now on. A single Redis: by the read loop of every shard,
   * which takes it into its next read when none is in flight; when one is (blocked until an entry comes or `blockMs`
   * passes), a new loop replaces it, reading every shard from its cursor (the old one's connection is dropped with the
   * read in flight, whose entries the new one reads again: cursors move only as entries are handled). A cluster: a
   * loop of its own. @internal
   */
  shardReady(loop: ShardLoop): void {
    if (loop.stopped || this.loops.get(loop.shard) !== loop) return;
    if (this.pushing) return (this.pushLoop ??= new PushLoop(this, 'ex-streams-relay-push')).add(loop);
    const { target } = this.config;
    if (typeof target !== 'string') {
      this.readLoops.add(new ReadLoop(this, [loop], `ex-streams-relay-${loop.shard}`));
      return;
    }
    const [current] = this.readLoops;
    if (current !== undefined && (current.has(loop) || current.add(loop))) return;
    const shards = current === undefined ? [loop] : [...current.live(), loop];
    if (current !== undefined) this.dropLoop(current);
    this.readLoops.add(new ReadLoop(this, shards, 'ex-streams-relay-read'));
  }

  /** Stops `loop` and forgets it. @internal */
  dropLoop(loop: ReadLoop): void {
    loop.stop();
    this.readLoops.delete(loop);
  }

  /** Answers a ping of `socket` once Redis answers one: liveness of the socket is liveness of Redis. */
  async ping(socket: RelaySocketSink): Promise<boolean> {
    if (this.socket !== socket) return false; // (a socket gone opens no connection)
    try {
      await (await this.commandClient()).ping();
      return true;
    } catch {
      return false;
    }
  }

  /** The cursor of each shard read so far. */
  snapshot(): ReadonlyMap<number, string> {
    return new Map(this.cursors);
  }

  /** Signals a gap of `shard` and resets the socket (but for `venue-trade-gap` and `unreadable`). @internal */
  gap(shard: number, reason: RelayGapReason, entryId: string, facts: Partial<RelayGap> = {}): void {
    const symbols = facts.symbols ?? [...new Set([...this.interest.values()].filter((i) => i.shard === shard).map((i) => i.symbol))];
    this.config.onGap({ ...facts, shard, reason, symbols, entryId });
    if (reason !== 'venue-trade-gap' && reason !== 'unreadable') this.socket?.reset(`redis relay gap (${reason}) on shard ${shard}`);
  }

  /**
   * Whether `shard`'s stream is behind its cursor: its newest entry older than the cursor, or none (Redis restarted
   * empty, a failover lost entries, a `resumeFrom` cursor ahead of the stream). New entries below the cursor would
   * never be read: the shard reads on from the stream's newest entry (as a late joiner), inside a `rewound` gap, said
   * on `errors$` too. One `XREVRANGE`, asked only of a shard that brought nothing for a while. @internal
   */
  async behind(shard: number, key: string, command: RedisClient): Promise<boolean> {
    const cursor = this.cursors.get(shard);
    if (cursor === undefined || cursor === '0-0') return false;
    const found = await command.xrevrange(key, '+', '-', 'COUNT', 1);
    if (this.cursors.get(shard) !== cursor) return false; // read on meanwhile
    const top = found[0];
    if (top !== undefined && compareIds(top[0], cursor) >= 0) return false;
    const entry = top === undefined ? undefined : readEntry(top[1]);
    this.cursors.set(shard, top?.[0] ?? '0-0');
    this.expected.set(shard, entry === undefined ? undefined : entry.seq + 1);
    const where = top === undefined ? 'it is empty' : `its newest entry is ${top[0]}`;
    this.config.onError('xread', new RedisRelayError('xread', `the stream ${key} is behind this consumer's cursor ${cursor} (${where}: Redis restarted empty, a failover lost entries, or the cursor is not of this stream): reading on from its newest entry`));
    this.gap(shard, 'rewound', cursor, { toMs: entry?.receivedAt });
    return true;
  }

  /**
   * One entry of `shard` read by its loop (`undefined`: unreadable). An entry that shows a hole in the sequence is
   * not delivered: it lies at the gap signalled (its frames' topics learn it too: a trade topic's next entry names
   * it as its previous one). Reading it again after the reset was tried: with a retention shorter than a reset, the
   * re-read found a new hole each time and the consumer never caught up. @internal
   */
  entry(shard: number, id: string, entry: MarketEntry | undefined): void {
    if (entry === undefined) return this.unreadable(shard, id);
    if (this.unreadableRun.size > 0) this.unreadableRun.delete(shard);
    const expected = this.expected.get(shard);
    if (expected !== undefined && entry.kind !== 'start' && entry.seq < expected && entry.seq >= expected - REPEAT_WINDOW) return this.repeat(id, entry);
    this.expected.set(shard, entry.seq + 1);
    if (entry.kind === 'start') {
      if (expected !== undefined) this.gap(shard, 'gateway-restart', id, { fromMs: undefined, toMs: entry.receivedAt });
      return;
    }
    if (expected !== undefined && entry.seq !== expected) {
      // Entries are gone (trimmed before they were read, or lost by Redis): the next socket starts at the newest entry,
      // as a late joiner (each topic's latest at once). Reading on from here, at the edge the retention trims, lost
      // more at every reset than a reset's time and never caught up (seen with a consumer stopped past the retention).
      this.cursors.delete(shard);
      this.expected.delete(shard);
      return this.gap(shard, 'sequence', id, { missing: entry.seq > expected ? entry.seq - expected : undefined, toMs: entry.receivedAt });
    }
    switch (entry.kind) {
      case 'message': {
        const interest = this.interest.get(lastField(entry.topic, entry.symbol));
        if (interest !== undefined) this.deliver(interest, id, entry.frame, entry.prev);
        return;
      }
      case 'epoch':
        if (!entry.open) this.gap(shard, 'venue-closed', id, { fromMs: entry.receivedAt });
        return;
      case 'gap':
        if (entry.reason === 'venue') {
          if (entry.symbol !== undefined && this.interest.has(lastField('trade', entry.symbol))) {
            this.gap(shard, 'venue-trade-gap', id, { symbols: [entry.symbol], fromMs: entry.fromMs, toMs: entry.toMs });
          }
          return;
        }
        return this.gap(shard, 'gateway-dropped', id, { missing: entry.dropped, fromMs: entry.fromMs, toMs: entry.toMs });
      default: {
        const never: never = entry;
        return never;
      }
    }
  }

  /**
   * An entry of `shard` that is not the relay's (another client's, a damaged one): skipped, inside an `unreadable` gap
   * (each one), said on `errors$` once per run of them. Not a reset: the entries around it are intact, and a frame of
   * the relay's lost with it shows in the sequence or in its trade topic's chain (`p`). Its fields are never read for a
   * sequence number: another client's `n` means nothing.
   */
  private unreadable(shard: number, id: string): void {
    if (!this.unreadableRun.has(shard)) {
      this.unreadableRun.add(shard);
      const key = streamKey(this.config.prefix, shard);
      this.config.onError('xread', new RedisRelayError('xread', `entry ${id} of ${key} is not an entry of the relay (written by another client, or damaged): skipped, inside an unreadable relay gap`));
    }
    this.gap(shard, 'unreadable', id);
  }

  /**
   * An entry whose sequence number was handled already: the gateway wrote again, above another client's id, an entry
   * Redis had refused, whose push had gone out all the same (by push it was delivered then). Skipped, no gap; a trade
   * frame's copy takes its place in the topic's chain (the next frame names the copy as its previous one).
   */
  private repeat(id: string, entry: MarketEntry): void {
    if (entry.kind !== 'message' || entry.topic !== 'trade') return;
    const mark = this.tradeMarks.get(entry.symbol);
    if (mark !== undefined && mark.frame === entry.frame) mark.id = id;
  }

  private deliver(interest: Interest, id: string, frame: string, prev: string | undefined): void {
    if (compareIds(id, interest.delivered) <= 0) return;
    const socket = this.socket;
    if (socket === undefined) return;
    interest.delivered = id;
    if (interest.topic === 'trade') this.checkTrades(interest.symbol, id, frame, prev, socket.epoch);
    socket.deliver(withRequestId(frame, interest.id));
  }

  /**
   * Before a trade frame of `symbol` goes out: when the frame of that topic the gateway received before it (`prev`)
   * is not the last one delivered here, frames were lost on the way (trimmed, lost by Redis, dropped by the
   * gateway), and the trades between the newest delivered and the oldest of this frame may be missing: a
   * {@link TradeGap}, as `marketStreams` signals one. Not for the venue's own replay (`"f":true`, after a
   * resubscription of the gateway): `trades()` judges it as from the venue. No JSON parse but when it signals.
   */
  private checkTrades(symbol: string, id: string, frame: string, prev: string | undefined, epoch: number): void {
    const mark = this.tradeMarks.get(symbol);
    if (mark === undefined) return void this.tradeMarks.set(symbol, { id, frame });
    if (id === mark.id || compareIds(id, mark.id) < 0) return; // an entry delivered again (a new epoch's latest): judged already
    const lastFrame = mark.frame;
    const ok = prev === mark.id;
    mark.id = id;
    mark.frame = frame;
    if (ok || REPLAY.test(frame)) return;
    const lastSeenId = tradeIds(lastFrame).max;
    const firstNewId = tradeIds(frame).min;
    if (lastSeenId !== undefined && firstNewId !== undefined && compareDecimal(firstNewId, lastSeenId) > 0) {
      this.config.onTradeGap({ symbol, lastSeenId, firstNewId, epoch });
    }
  }

  /** Delivers the latest entry of `field` when the loop read past it (else the loop delivers it). */
  private async latest(field: string, interest: Interest): Promise<void> {
    const { prefix } = this.config;
    try {
      await this.loops.get(interest.shard)?.ready;
      if (this.interest.get(field) !== interest) return;
      const command = await this.commandClient();
      const id = await command.hget(lastKey(prefix, interest.shard), field);
      const cursor = this.cursors.get(interest.shard);
      if (id === null || cursor === undefined || compareIds(id, cursor) > 0) return;
      const found = await command.xrange(streamKey(prefix, interest.shard), id, id);
      const entry = found[0] === undefined ? undefined : readEntry(found[0][1]);
      if (entry?.kind === 'message' && this.interest.get(field) === interest) this.deliver(interest, id, entry.frame, entry.prev);
    } catch (e) {
      if (this.interest.get(field) === interest) this.config.onError('hget', e);
    }
  }
}
