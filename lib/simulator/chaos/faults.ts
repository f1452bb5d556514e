import { faultRejection, type HttpRejection } from '../http/httpErrors';
import type { FaultCounts } from './chaosTypes';
import type { LoseAnswersOptions, PrivateChaosOptions, RejectOptions } from '../control/controlOptions';
import type { StreamKind, StreamSelector } from '../streams/streamKind';

/** @internal */
export type MutableFaultCounts = { -readonly [K in keyof FaultCounts]: number };

/** @internal */
export const streamsOf = (selector: StreamSelector): StreamKind[] => (selector === 'all' ? ['public', 'private'] : [selector]);

/**
 * Fault-injection state: stalls, queued HTTP rejections and lost answers, clock skew and private chaos settings.
 * @internal
 */
export class Faults {
  private readonly stalled = new Set<StreamKind>();
  /** Streams whose stall holds client frames for processing at `resume()` (TCP-like) instead of dropping them. */
  private readonly holding = new Set<StreamKind>();
  private rejectLeft = 0;
  private rejection: HttpRejection = faultRejection;
  private loseLeft = 0;
  private loss: LoseAnswersOptions = { mode: 'reset' };
  skewMs = 0;
  /** Sequence faults queued for the next `diffMergedDepth` deltas (any pair): each skips or repeats one `o`. */
  readonly bookSequence: ('skip' | 'repeat')[] = [];
  duplicateProbability = 0;
  reorderWindowMs = 0;
  /** What was injected, by kind (see `FaultCounts`). */
  readonly counts: MutableFaultCounts = {
    drop: 0,
    close: 0,
    stall: 0,
    halfOpen: 0,
    rawFrame: 0,
    privateChaos: 0,
    listenKeyExpiry: 0,
    rejectedRequests: 0,
    lostAnswers: 0,
    clockSkew: 0,
    duplicatedPrivateFrames: 0,
    delayedPrivateFrames: 0,
  };

  isStalled(stream: StreamKind): boolean {
    return this.stalled.has(stream);
  }

  stall(selector: StreamSelector, inbound: 'drop' | 'hold' = 'drop'): void {
    for (const s of streamsOf(selector)) {
      this.stalled.add(s);
      if (inbound === 'hold') this.holding.add(s);
    }
  }

  /** Whether client frames of a stalled stream are held for `resume()`. */
  isHolding(stream: StreamKind): boolean {
    return this.holding.has(stream);
  }

  resume(): void {
    this.stalled.clear();
    this.holding.clear();
  }

  rejectNext(n: number, options: RejectOptions = {}): void {
    this.rejectLeft = Math.max(0, Math.floor(n));
    this.rejection = {
      status: options.status ?? faultRejection.status,
      code: options.code ?? faultRejection.code,
      msg: options.msg ?? faultRejection.msg,
    };
  }

  /** The injected rejection for this request, if one is queued (consumes it). */
  takeRejection(): HttpRejection | undefined {
    if (this.rejectLeft <= 0) return undefined;
    this.rejectLeft -= 1;
    this.counts.rejectedRequests += 1;
    return this.rejection;
  }

  /** Queues `n` lost answers (replacing what is queued; 0 clears). */
  loseNext(n: number, options: LoseAnswersOptions = { mode: 'reset' }): void {
    this.loseLeft = Math.max(0, Math.floor(n));
    this.loss = options.mode === 'delay' ? { ...options, delayMs: Math.max(0, options.delayMs) } : options;
  }

  /** How the answer to this request is lost, when a queued loss matches its method and path (consumes it). */
  takeLoss(method: string, path: string): LoseAnswersOptions | undefined {
    const { method: onlyMethod, path: onlyPath } = this.loss;
    if (this.loseLeft <= 0) return undefined;
    if (onlyMethod !== undefined && onlyMethod.toUpperCase() !== method.toUpperCase()) return undefined;
    if (onlyPath !== undefined && onlyPath !== path) return undefined;
    this.loseLeft -= 1;
    this.counts.lostAnswers += 1;
    return this.loss;
  }

  setChaos(options: PrivateChaosOptions): void {
    this.duplicateProbability = Math.min(1, Math.max(0, options.duplicateProbability ?? 0));
    this.reorderWindowMs = Math.max(0, options.reorderWindowMs ?? 0);
    if (this.duplicateProbability > 0 || this.reorderWindowMs > 0) this.counts.privateChaos += 1;
  }
}
