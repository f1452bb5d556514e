import { faultRejection, type HttpRejection } from './httpErrors';
import type { PrivateChaosOptions, RejectOptions, StreamKind, StreamSelector } from './types';

/** @internal */
export const streamsOf = (selector: StreamSelector): StreamKind[] => (selector === 'all' ? ['public', 'private'] : [selector]);

/**
 * Fault-injection state: stalls, queued HTTP rejections, clock skew and private chaos settings.
 * @internal
 */
export class Faults {
  private readonly stalled = new Set<StreamKind>();
  private rejectLeft = 0;
  private rejection: HttpRejection = faultRejection;
  skewMs = 0;
  duplicateProbability = 0;
  reorderWindowMs = 0;

  isStalled(stream: StreamKind): boolean {
    return this.stalled.has(stream);
  }

  stall(selector: StreamSelector): void {
    for (const s of streamsOf(selector)) this.stalled.add(s);
  }

  resume(): void {
    this.stalled.clear();
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
    return this.rejection;
  }

  setChaos(options: PrivateChaosOptions): void {
    this.duplicateProbability = Math.min(1, Math.max(0, options.duplicateProbability ?? 0));
    this.reorderWindowMs = Math.max(0, options.reorderWindowMs ?? 0);
  }
}
