import { entryFields, type MarketEntry } from '../marketEntry';
import { compareIds } from '../marketKeys';
import type { StreamIds } from './streamIds';

/**
 * An entry of the gateway's writer on its way to Redis, and what renumbering does to the queue when Redis refused an
 * id (another client's entry above ours in the stream).
 *
 * @internal
 * @module
 */

/** The `p` of an entry whose topic's previous frame was dropped (no entry has this id). */
export const DROPPED = '0-0';

/** An entry queued or being written. @internal */
export interface Pending {
  readonly shard: number;
  /** Its stream id; given anew (with its fields) when Redis refused it on a first attempt (see `renumber`). */
  id: string;
  entry: MarketEntry;
  fields: readonly string[];
  /** `topic|symbol` of a data entry (its `:last` field). */
  readonly last: string | undefined;
  attempted: boolean;
}

/** What {@link renumberQueue} left: the queue to write (in order), and the entries lost. @internal */
export interface Renumbered {
  readonly kept: Pending[];
  /** How many entries were lost. */
  readonly lost: number;
  /** The id of the first entry lost, if one was. */
  readonly firstLost: string | undefined;
}

/**
 * New ids, above the raised floor (`ids`), for the queued entries of the `shards` where Redis refused an entry's first
 * attempt (none of them is in the stream: an entry attempted before keeps its id, which a lookup judges). The `p` of
 * each, and of frames to come (`prevOf`, updated in place), follows its previous frame's new id. `writtenTop`: per
 * shard, the id of the newest entry written. @internal
 */
export function renumberQueue(queue: readonly Pending[], shards: ReadonlySet<number>, writtenTop: readonly string[], ids: StreamIds, prevOf: Map<string, string>): Renumbered {
  const renames = new Map<string, string>();
  let firstLost: string | undefined;
  let lost = 0;
  const kept: Pending[] = [];
  for (const p of queue) {
    if (!shards.has(p.shard) || p.attempted) {
      kept.push(p);
      continue;
    }
    if (compareIds(p.id, writtenTop[p.shard]!) < 0) {
      // A later entry of its shard was written (an id between the other client's and this one's): written now, it
      // would follow it in the stream, out of sequence. Lost, counted, said; consumers see the hole in `n`.
      lost++;
      firstLost ??= p.id;
      renames.set(p.id, DROPPED);
      continue;
    }
    kept.push(p);
    const id = ids.next(p.shard, p.entry.receivedAt);
    renames.set(p.id, id);
    p.id = id;
    const { entry } = p;
    if (entry.kind === 'message' && entry.prev !== undefined && renames.has(entry.prev)) p.entry = { ...entry, prev: renames.get(entry.prev) };
    p.fields = entryFields(p.entry);
  }
  for (const [field, id] of prevOf) {
    const renamed = renames.get(id);
    if (renamed !== undefined) prevOf.set(field, renamed);
  }
  return { kept, lost, firstLost };
}
