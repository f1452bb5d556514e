import type { Redis } from 'ioredis';
import type { Subscription } from 'rxjs';
import { type MarketEntry, type PushedEntry, readEntry, readPush } from '../marketEntry';
import { compareIds } from '../marketKeys';
import { openRedis, type RedisClient, whenReady } from './openRedis';
import type { RelayReaderConfig } from './relayReaderConfig';
import { scheduleRepeating } from '../../internal/scheduleRepeating';
import { endWait, MAX_RETRY_MS, MIN_RETRY_MS, sleep, type Wait } from './retryWait';

/**
 * The consumer's push path on a single Redis (docs/scaling.md, "Push or XREAD"): entries come as the gateway publishes
 * them (`SUBSCRIBE` to each shard's channel, on a connection of its own), and the stream stays the source of truth.
 * A shard is read from its cursor (`XREAD`, not blocking, on the command connection) when it is subscribed, after
 * every reconnect of the push connection, whenever a push does not follow the last entry handled (its sequence
 * number skips: pushes were lost), and every `checkMs` (a lost last push, a gateway that stopped publishing). Pushes
 * that come while a read is under way wait for it; entries are handled once, in order (an id at or before the cursor
 * is skipped). A push that still skips after a read issued after it came is a hole of the stream itself: the reader
 * judges it (a gap, as with `XREAD`).
 *
 * Reads keep finding entries and no push arrives for two checks in a row: the push connection is made again first
 * (it may have gone silent alone: a dead NAT entry). Pushes that still do not come (a gateway with `push: false`, or
 * whose ACL lacks `+publish`), or a `SUBSCRIBE` refused (the consumer's ACL): the reader falls back to blocking
 * `XREAD` for good, and says so on `errors$` once.
 *
 * @internal
 * @module
 */

/** What a push loop needs of its reader (`RelayReader`). @internal */
export interface PushHost {
  readonly config: RelayReaderConfig;
  readonly cursors: Map<number, string>;
  readonly expected: ReadonlyMap<number, number | undefined>;
  entry(shard: number, id: string, entry: MarketEntry | undefined): void;
  commandClient(): Promise<RedisClient>;
  /** Pushes do not come (`why`): read with blocking `XREAD` from now on. */
  fallBack(why: Error): void;
  /** Whether the shard's stream is behind its cursor (then it reads on from its newest entry, inside a gap). */
  behind(shard: number, key: string, command: RedisClient): Promise<boolean>;
}

/** A shard a push loop follows. @internal */
export interface PushedShard {
  readonly shard: number;
  /** Its stream's key, and its channel's name. */
  readonly key: string;
  readonly stopped: boolean;
}

/** A push held while a read is under way, with the number of reads issued before it came. */
interface Held {
  readonly push: PushedEntry;
  readonly reads: number;
}

interface Followed {
  readonly loop: PushedShard;
  /** Subscribed: pushes are taken as they come, once no read is under way. */
  subscribed: boolean;
  /** A read from the cursor is under way. */
  reading: boolean;
  /** Read again once the read under way ends (pushes were dropped from `held`, or one skipped). */
  again: boolean;
  /** Reads issued so far. */
  reads: number;
  held: Held[];
  /** When a read last found something, or the stream was checked for being behind the cursor (scheduler ms). */
  quietSince: number;
}

/** What a push without a payload is read as (not an entry: the stream is read instead). */
const EMPTY = Buffer.alloc(0);
/** Checks in a row with entries read and no push come, before the loop calls pushes off. */
const QUIET_CHECKS = 2;

/** See the module. @internal */
export class PushLoop {
  stopped = false;
  private readonly conn: Redis;
  private readonly followed = new Map<string, Followed>();
  /** Pushes come, and entries found by reads, since the last check. */
  private pushes = 0;
  private found = 0;
  private quietChecks = 0;
  /** The push connection was made again for quiet checks, and no push came since (the next quiet run falls back). */
  private remade = false;
  private readonly check: Subscription;
  /** Waits before a retry under way (one per shard's subscribe or read at most): a stop ends them. */
  private readonly waits = new Set<Wait>();

  constructor(
    private readonly host: PushHost,
    name: string,
  ) {
    const { target, scheduler, checkMs } = host.config;
    this.conn = openRedis(target, name) as Redis;
    this.conn.on('error', () => undefined); // failures surface on the commands and the reads
    // The bytes (`messageBuffer`), not the text: each field is decoded on its own into a flat string (see `readPush`).
    this.conn.on('messageBuffer', (channel: unknown, payload: unknown) => {
      if (Buffer.isBuffer(channel)) this.onPush(channel.toString(), Buffer.isBuffer(payload) ? payload : EMPTY);
    });
    // Reconnected: pushes sent meanwhile are lost; read each shard from its cursor (ioredis subscribes again by itself).
    this.conn.on('ready', () => {
      for (const f of this.followed.values()) if (f.subscribed) this.read(f);
    });
    // A fresh action per check (scheduleRepeating): `this.schedule` would chain one action per check on a virtual scheduler.
    this.check = scheduleRepeating(
      scheduler,
      () => {
        this.onCheck();
        return this.stopped ? undefined : checkMs;
      },
      checkMs,
    );
  }

  /** Follows `loop` (its cursor and expected sequence known): subscribes, then reads it from its cursor. */
  add(loop: PushedShard): void {
    const f: Followed = { loop, subscribed: false, reading: false, again: false, reads: 0, held: [], quietSince: this.host.config.scheduler.now() };
    this.followed.set(loop.key, f);
    void this.subscribe(f);
  }

  /** No longer follows `loop` (its last topic cancelled). */
  remove(loop: PushedShard): void {
    if (this.followed.get(loop.key)?.loop !== loop) return;
    this.followed.delete(loop.key);
    if (this.conn.status === 'ready') this.conn.unsubscribe(loop.key).catch(() => undefined);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.check.unsubscribe();
    for (const w of [...this.waits]) endWait(w);
    this.followed.clear();
    this.conn.disconnect();
    this.conn.emit('end'); // (wakes a wait for 'ready': the loop ends now, as the XREAD loop's does)
  }

  private live(f: Followed): boolean {
    return !this.stopped && !f.loop.stopped && this.followed.get(f.loop.key) === f;
  }

  private async subscribe(f: Followed): Promise<void> {
    for (let wait = MIN_RETRY_MS; this.live(f); wait = Math.min(wait * 2, MAX_RETRY_MS)) {
      await this.connected();
      if (!this.live(f)) return;
      try {
        await this.conn.subscribe(f.loop.key);
        if (!this.live(f)) return;
        f.subscribed = true;
        return this.read(f);
      } catch (e) {
        if (!this.live(f)) return;
        // Refused (an ACL without the channel or `+subscribe`): no push will come.
        if (/NOPERM/.test(String((e as Error)?.message))) return this.host.fallBack(e as Error);
        this.host.config.onError('subscribe', e);
        await this.sleep(wait);
      }
    }
  }

  /** Resolves when the loop's connection is ready (at once if it is), or it stopped. */
  private connected(): Promise<void> {
    return whenReady(this.conn, () => this.stopped);
  }

  private sleep(ms: number): Promise<void> {
    let held: Wait | undefined;
    return sleep(this.host.config.scheduler, ms, (w) => {
      if (w === undefined && held !== undefined) this.waits.delete(held);
      else if (w !== undefined) this.waits.add((held = w));
    });
  }

  private onPush(channel: string, payload: Buffer): void {
    const f = this.followed.get(channel);
    if (f === undefined || !this.live(f)) return;
    this.pushes++;
    const push = readPush(payload);
    // Not an entry at all: the stream has what was published; read it there.
    if (push === undefined) return this.read(f);
    if (!f.subscribed || f.reading) return this.hold(f, push);
    this.take(f, push, false);
  }

  private hold(f: Followed, push: PushedEntry): void {
    // Never more than a read's worth: past it, the read after the one under way finds them in the stream.
    if (f.held.length >= this.host.config.count) {
      f.held = [];
      f.again = true;
      return;
    }
    f.held.push({ push, reads: f.reads });
  }

  /**
   * Handles `push` when it follows the last entry handled; else reads the stream first (`judge` false), or lets the
   * reader judge it (`judge` true: a read issued after it came found nothing between: a hole of the stream).
   */
  private take(f: Followed, push: PushedEntry, judge: boolean): void {
    if (this.handled(f, push)) return;
    if (!judge && this.skips(f, push)) {
      this.hold(f, push);
      return this.read(f);
    }
    const { shard } = f.loop;
    this.host.cursors.set(shard, push.id);
    this.host.entry(shard, push.id, push.entry);
  }

  /** Whether `push` was handled already (its id at or before the cursor), or its shard is being reset (no cursor). */
  private handled(f: Followed, push: PushedEntry): boolean {
    const cursor = this.host.cursors.get(f.loop.shard);
    return cursor === undefined || compareIds(push.id, cursor) <= 0;
  }

  /** Whether `push` does not follow the last entry handled: its sequence number skips, or it is not an entry. */
  private skips(f: Followed, push: PushedEntry): boolean {
    const expected = this.host.expected.get(f.loop.shard);
    return push.entry === undefined || (expected !== undefined && push.entry.seq !== expected);
  }

  /** Reads `f`'s stream from its cursor to its end, then takes the pushes held meanwhile. */
  private read(f: Followed): void {
    if (f.reading) {
      f.again = true;
      return;
    }
    f.reading = true;
    this.readAll(f)
      .catch((e: unknown) => this.host.config.onError('xread', e))
      .finally(() => (f.reading = false));
  }

  private async readAll(f: Followed): Promise<void> {
    const { host } = this;
    const { shard, key } = f.loop;
    const { count } = host.config;
    let wait = MIN_RETRY_MS;
    let found = 0;
    do {
      f.again = false;
      for (;;) {
        if (!this.live(f)) return;
        const cursor = host.cursors.get(shard);
        if (cursor === undefined) return;
        let reply: [string, [string, string[]][]][] | null;
        try {
          const command = await host.commandClient();
          if (!this.live(f)) return;
          f.reads++;
          reply = (await command.xread('COUNT', count, 'STREAMS', key, cursor)) as typeof reply;
          wait = MIN_RETRY_MS;
          host.config.onRecovered();
        } catch (e) {
          if (!this.live(f)) return;
          host.config.onError('xread', e);
          await this.sleep(wait);
          wait = Math.min(wait * 2, MAX_RETRY_MS);
          continue;
        }
        const entries = reply?.[0]?.[1] ?? [];
        for (let i = 0; i < entries.length; i++) {
          if (!this.live(f)) return;
          const [id, fields] = entries[i]!;
          entries[i] = undefined as never; // (let go at once: see the XREAD loop)
          const at = host.cursors.get(shard);
          if (at === undefined) return;
          if (compareIds(id, at) <= 0) continue; // handled from a push meanwhile
          this.found++;
          found++;
          host.cursors.set(shard, id);
          host.entry(shard, id, readEntry(fields));
        }
        if (entries.length < count) break;
      }
      if (found > 0 || f.held.length > 0) f.quietSince = host.config.scheduler.now();
      else if (await this.behind(f)) return;
      const held = f.held;
      f.held = [];
      for (let i = 0; i < held.length; i++) {
        if (!this.live(f)) return;
        const { push, reads } = held[i]!;
        // Came after the last read was issued: that read may have missed what it skips; read again before judging.
        if (reads >= f.reads && !this.handled(f, push) && this.skips(f, push)) {
          f.held = held.slice(i).concat(f.held);
          f.again = true;
          break;
        }
        this.take(f, push, true);
      }
    } while (f.again && this.live(f));
  }

  /**
   * Whether `f`'s stream is behind its cursor, asked when reads found nothing for a check period (pushes of entries
   * below the cursor are taken for repeats: only the stream's newest id tells). The reader then reads on from there.
   */
  private async behind(f: Followed): Promise<boolean> {
    const now = this.host.config.scheduler.now();
    // (a loop stopped meanwhile opens no command connection)
    if (!this.live(f) || now - f.quietSince < this.host.config.checkMs) return false;
    f.quietSince = now;
    try {
      const command = await this.host.commandClient();
      return this.live(f) && (await this.host.behind(f.loop.shard, f.loop.key, command));
    } catch (e) {
      if (this.live(f)) this.host.config.onError('xrevrange', e);
      return false;
    }
  }

  private onCheck(): void {
    if (this.stopped) return;
    const quiet = this.pushes === 0 && this.found > 0;
    if (this.pushes > 0) this.remade = false;
    this.pushes = 0;
    this.found = 0;
    this.quietChecks = quiet ? this.quietChecks + 1 : 0;
    if (this.quietChecks >= QUIET_CHECKS) {
      this.quietChecks = 0;
      if (!this.remade) {
        // First the push connection itself, which may have gone silent alone (a dead NAT entry: the command connection,
        // whose reads found the entries, is fine): made again, it subscribes again and each shard is read from its cursor.
        this.remade = true;
        this.host.config.onError('subscribe', new Error('no push for two checks while entries come: connecting the push connection again'));
        return void this.conn.disconnect(true);
      }
      return this.host.fallBack(new Error('entries are in the streams but no push comes (a gateway with push off, or an ACL without +publish for it)'));
    }
    for (const f of this.followed.values()) if (f.subscribed && this.live(f)) this.read(f);
  }
}
