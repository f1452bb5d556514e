import type { RelayGapReason } from '../relayGap';
import { readEntry } from '../marketEntry';
import { streamKey } from '../marketKeys';
import type { RedisClient } from './openRedis';
import type { RelayReaderConfig } from './relayReaderConfig';
import { endWait, MAX_RETRY_MS, MIN_RETRY_MS, sleep, type Wait } from './retryWait';

/** What a {@link ShardLoop} reads and tells of its reader (`RelayReader`). @internal */
export interface ShardHost {
  readonly config: RelayReaderConfig;
  readonly cursors: Map<number, string>;
  readonly expected: Map<number, number | undefined>;
  commandClient(): Promise<RedisClient>;
  /** Whether the shard's stream is behind its cursor (then it reads on from its newest entry, inside a gap). */
  behind(shard: number, key: string, command: RedisClient): Promise<boolean>;
  /** Signals a gap of `shard` (and resets the socket). */
  gap(shard: number, reason: RelayGapReason, entryId: string): void;
  /** `loop`'s shard knows where it starts: it is read from now on. */
  shardReady(loop: ShardLoop): void;
}

/** One shard being read: where it starts (its cursor and sequence, found once), and whether it is still wanted. @internal */
export class ShardLoop {
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
    private readonly reader: ShardHost,
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
