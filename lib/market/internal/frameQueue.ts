import type { SubscriptionExtraParams } from '../../codecs/requests';

/**
 * The `sub` and `cancel` requests waiting to leave, grouped into frames: topics of the same request topic and
 * encoding go out together, their symbols comma-joined (`"symbol": "BTCUSDT,ETHUSDT"`), at most `maxSymbols` a
 * frame. No time, no socket: `requestBatcher` decides when a frame leaves and what becomes of it.
 *
 * @internal
 * @module
 */

/** A topic whose `sub` waits, as the queue sees it. @internal */
export interface QueuedTopic {
  readonly symbol: string;
  /** The request topic: `trade`, `kline_1m`, … */
  readonly topic: string;
  readonly binary: boolean;
  /** Params of its frame besides `binary` (`limit`, `dumpScale`): topics with other params go in other frames. */
  readonly params?: SubscriptionExtraParams | undefined;
  /**
   * 0, or the suspect group it belongs to while the culprit of a refused batch (or of a closed connection) is
   * looked for: a suspect group leaves as a frame of its own, never mixed with other topics.
   */
  readonly tag: number;
}

/** The next frame to send: a `cancel` of symbols, or a `sub` of topics. @internal */
export type QueuedFrame<S extends QueuedTopic> =
  | { readonly kind: 'cancel'; readonly topic: string; readonly binary: boolean; readonly params: SubscriptionExtraParams | undefined; readonly symbols: readonly string[] }
  | { readonly kind: 'sub'; readonly topic: string; readonly binary: boolean; readonly params: SubscriptionExtraParams | undefined; readonly tag: number; readonly members: readonly S[] };

/** Which `sub` groups may leave now (cancels always may). @internal */
export interface QueueGate {
  /** Groups of ordinary topics (tag 0). */
  readonly normal: boolean;
  /** Suspect groups. */
  readonly suspects: boolean;
}

interface SubGroup<S> {
  readonly key: string;
  readonly topic: string;
  readonly binary: boolean;
  readonly params: SubscriptionExtraParams | undefined;
  readonly tag: number;
  readonly members: Set<S>;
}

interface CancelGroup {
  readonly topic: string;
  readonly binary: boolean;
  readonly params: SubscriptionExtraParams | undefined;
  readonly symbols: Set<string>;
}

/** The params as text (`''` when none): part of a group's key. @internal */
export const paramsKey = (params: SubscriptionExtraParams | undefined): string =>
  params === undefined ? '' : `${params.limit ?? ''}|${params.dumpScale ?? ''}`;

const groupKey = (topic: string, binary: boolean, tag: number, params: SubscriptionExtraParams | undefined): string =>
  `${topic}|${binary ? 1 : 0}|${tag}|${paramsKey(params)}`;

/** First-in, first-out within each kind: cancels, then ordinary subs, then suspects. @internal */
export class FrameQueue<S extends QueuedTopic> {
  /** Insertion-ordered: the group that started waiting first leaves first. */
  private readonly subs = new Map<string, SubGroup<S>>();
  private readonly cancels = new Map<string, CancelGroup>();
  private readonly groupOf = new Map<S, SubGroup<S>>();

  constructor(private readonly maxSymbols: number) {}

  /** Queues the `sub` of `s` (in the group of its current tag). */
  addSub(s: S): void {
    this.removeSub(s);
    const key = groupKey(s.topic, s.binary, s.tag, s.params);
    let group = this.subs.get(key);
    if (group === undefined) this.subs.set(key, (group = { key, topic: s.topic, binary: s.binary, params: s.params, tag: s.tag, members: new Set() }));
    group.members.add(s);
    this.groupOf.set(s, group);
  }

  /** Takes the `sub` of `s` out of the queue; false when it was not queued. */
  removeSub(s: S): boolean {
    const group = this.groupOf.get(s);
    if (group === undefined) return false;
    this.groupOf.delete(s);
    group.members.delete(s);
    if (group.members.size === 0) this.subs.delete(group.key);
    return true;
  }

  hasSub(s: S): boolean {
    return this.groupOf.has(s);
  }

  /** Queues the `cancel` of `symbol`'s `topic`. */
  addCancel(symbol: string, topic: string, binary: boolean, params?: SubscriptionExtraParams): void {
    const key = groupKey(topic, binary, 0, params);
    let group = this.cancels.get(key);
    if (group === undefined) this.cancels.set(key, (group = { topic, binary, params, symbols: new Set() }));
    group.symbols.add(symbol);
  }

  /** Drops every queued `cancel` (a new socket has no subscription to cancel). */
  clearCancels(): void {
    this.cancels.clear();
  }

  /** `sub` groups waiting (suspects included). */
  get waitingSubs(): boolean {
    return this.subs.size > 0;
  }

  /** Whether {@link next} would give a frame through `gate`. */
  ready(gate: QueueGate): boolean {
    return this.cancels.size > 0 || this.firstSub(gate) !== undefined;
  }

  /** The next frame through `gate`, taken out of the queue; `undefined` when none may leave. */
  next(gate: QueueGate): QueuedFrame<S> | undefined {
    for (const [key, group] of this.cancels) {
      const symbols = take(group.symbols, this.maxSymbols);
      for (const symbol of symbols) group.symbols.delete(symbol);
      if (group.symbols.size === 0) this.cancels.delete(key);
      return { kind: 'cancel', topic: group.topic, binary: group.binary, params: group.params, symbols };
    }
    const group = this.firstSub(gate);
    if (group === undefined) return undefined;
    const members = take(group.members, this.maxSymbols);
    for (const s of members) this.removeSub(s);
    return { kind: 'sub', topic: group.topic, binary: group.binary, params: group.params, tag: group.tag, members };
  }

  private firstSub(gate: QueueGate): SubGroup<S> | undefined {
    let suspect: SubGroup<S> | undefined;
    for (const group of this.subs.values()) {
      if (group.tag === 0) {
        if (gate.normal) return group;
      } else suspect ??= group;
    }
    return gate.suspects ? suspect : undefined;
  }
}

/** The first `n` elements of `set`, in order. */
function take<T>(set: ReadonlySet<T>, n: number): T[] {
  const out: T[] = [];
  for (const x of set) {
    if (out.length >= n) break;
    out.push(x);
  }
  return out;
}
