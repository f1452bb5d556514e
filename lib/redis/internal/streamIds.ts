/**
 * The stream ids a gateway gives each shard's entries (`ms-seq`): known before the write, so a batch leaves in one
 * round trip and a retry writes the same ids again.
 *
 * @internal
 * @module
 */

/** The last stream id given per shard, and the next one. @internal */
export class StreamIds {
  private readonly lastMs: number[];
  private readonly lastSub: number[];

  constructor(shards: number) {
    this.lastMs = new Array<number>(shards).fill(0);
    this.lastSub = new Array<number>(shards).fill(-1);
  }

  /** The next stream id of `shard`: `ms-0` at a new millisecond, else the sub-sequence goes on (ids only grow). */
  next(shard: number, at: number): string {
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

  /** Ids given later in `shard` will be above `id`: its millisecond when that raised them, else `undefined`. */
  raise(shard: number, id: string): number | undefined {
    const [ms = '0', sub = '0'] = id.split('-');
    const m = Number(ms);
    const s = Number(sub);
    if (!(m > (this.lastMs[shard] ?? 0) || (m === this.lastMs[shard] && s > (this.lastSub[shard] ?? -1)))) return undefined;
    this.lastMs[shard] = m;
    this.lastSub[shard] = s;
    return m;
  }
}
