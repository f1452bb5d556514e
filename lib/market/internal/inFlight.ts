/**
 * The `sub` frames waiting for their answer (`requestBatcher`): a frame is in flight until each of its topics was
 * answered (a data message, a code-0 acknowledgement), refused or gone, or until its answer window ends. What is
 * in flight when the service refuses something without naming it, or when the socket is lost, is what is blamed.
 *
 * @internal
 * @module
 */

/** A `sub` frame in flight. @internal */
export interface SentFrame<S> {
  readonly id: string;
  /** Its request topic. */
  readonly topic: string;
  /** When it left (scheduler time). */
  readonly at: number;
  /** It carried a suspect group. */
  readonly suspect: boolean;
  /** Its topics not answered yet. */
  readonly waiting: Set<S>;
}

/** The `sub` frames in flight of one socket. @internal */
export class InFlight<S> {
  private readonly frames = new Map<string, SentFrame<S>>();
  private readonly frameOf = new Map<S, SentFrame<S>>();

  /** `windowMs`: how long a frame waits for its answer before it no longer counts. */
  constructor(private readonly windowMs: number) {}

  /** A `sub` frame left with these topics, each waiting for its answer from now on. */
  sent(id: string, topic: string, at: number, suspect: boolean, members: readonly S[]): void {
    if (members.length === 0) return;
    const frame: SentFrame<S> = { id, topic, at, suspect, waiting: new Set(members) };
    for (const s of members) {
      this.leave(s);
      this.frameOf.set(s, frame);
    }
    this.frames.set(id, frame);
  }

  /** `s` waits no more (answered, refused, gone); true when that emptied its frame. */
  leave(s: S): boolean {
    const frame = this.frameOf.get(s);
    if (frame === undefined) return false;
    this.frameOf.delete(s);
    frame.waiting.delete(s);
    if (frame.waiting.size > 0) return false;
    this.frames.delete(frame.id);
    return true;
  }

  /** The frame of request `id`, if in flight. */
  get(id: string): SentFrame<S> | undefined {
    return this.frames.get(id);
  }

  /** Frames whose answer window ended by `now` no longer count. */
  prune(now: number): void {
    for (const frame of this.frames.values()) {
      if (frame.at + this.windowMs > now) continue;
      for (const s of frame.waiting) this.frameOf.delete(s);
      this.frames.delete(frame.id);
    }
  }

  /** What waits for an answer, frame by frame (after {@link prune}). */
  units(): S[][] {
    return [...this.frames.values()].map((frame) => [...frame.waiting]);
  }

  /** The topics waiting whose symbol is one of `symbols`. */
  withSymbols(symbols: readonly string[], symbolOf: (s: S) => string): S[] {
    const named = new Set(symbols);
    return [...this.frameOf.keys()].filter((s) => named.has(symbolOf(s)));
  }

  /** Forgets every frame (a new socket). */
  clear(): void {
    this.frames.clear();
    this.frameOf.clear();
  }

  /** Any frame in flight. */
  get size(): number {
    return this.frames.size;
  }

  /** A frame with a suspect group in flight. */
  get suspect(): boolean {
    for (const frame of this.frames.values()) if (frame.suspect) return true;
    return false;
  }

  /** When the first answer window ends (`Infinity`: nothing in flight). */
  firstExpiry(): number {
    let first = Infinity;
    for (const frame of this.frames.values()) first = Math.min(first, frame.at + this.windowMs);
    return first;
  }
}
