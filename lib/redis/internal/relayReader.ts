import { compareDecimal } from '../../decimal/compare';
import type { RelayGap, RelayGapReason } from '../relayGap';
import { type MarketEntry, readEntry } from '../marketEntry';
import { compareIds, lastField, lastKey, shardOf, streamKey } from '../marketKeys';
import { RedisRelayError } from '../redisRelayError';
import { openRedis, type RedisClient } from './openRedis';
import { type PushHost, PushLoop } from './pushLoop';
import { type ReadHost, ReadLoop } from './readLoop';
import type { RelayReaderConfig } from './relayReaderConfig';
import { type ShardHost, ShardLoop } from './shardLoop';
import { REPLAY, tradeIds, withRequestId } from './tradeFrames';

export type { RelayReaderConfig } from './relayReaderConfig';

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

/**
 * How far below the next sequence number expected an entry is taken for a copy of one handled already (see
 * `RelayReader.repeat`): the entries of the gateway's two writes in flight at most.
 */
const REPEAT_WINDOW = 4_096;

/** See the module. @internal */
export class RelayReader implements PushHost, ShardHost, ReadHost {
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
