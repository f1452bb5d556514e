import { concatMap, defer, finalize, timer, type Observable, type SchedulerLike } from 'rxjs';
import { ConfigError } from '../errors';
import type { RestRateLimit, RestRequest } from './types';

const WINDOW_MS = 1000;

/** Start times booked in a sliding one-second window, in order. */
interface Window {
  /**
   * The earliest start at or after `now` and after every booked start at which `weight` more starts keep at most
   * `limit` starts per second (a weight above the limit counts as the limit).
   */
  earliest(now: number, weight: number): number;
  book(at: number, weight: number): void;
  release(at: number, weight: number): void;
}

function slidingWindow(limit: number): Window {
  const starts: number[] = [];
  const slots = (weight: number): number => Math.min(limit, Math.max(1, Math.floor(weight)));
  return {
    earliest(now, weight) {
      while (starts.length > 0 && starts[0]! <= now - WINDOW_MS) starts.shift();
      const last = starts.length > 0 ? starts[starts.length - 1]! : now;
      const n = slots(weight);
      const full = starts.length + n > limit ? starts[starts.length + n - limit - 1]! + WINDOW_MS : now;
      return Math.max(now, last, full);
    },
    book: (at, weight) => {
      for (let i = slots(weight); i > 0; i--) starts.push(at);
    },
    release(at, weight) {
      for (let n = slots(weight); n > 0; n--) {
        const i = starts.lastIndexOf(at);
        if (i >= 0) starts.splice(i, 1);
      }
    },
  };
}

const unlimited: Window = { earliest: (now) => now, book: () => undefined, release: () => undefined };

function windowOf(option: string, perSecond: number | undefined): Window {
  if (perSecond === undefined) return unlimited;
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0) {
    throw new ConfigError(option, `must be a positive number (got ${String(perSecond)})`);
  }
  return slidingWindow(Math.max(1, Math.floor(perSecond)));
}

/**
 * Order placements (`POST` on an order path, v1 or v1.1, or a batch placement; not the test order) count against
 * `ordersPerSecond`. @internal
 */
export const isOrderPlacement = (request: RestRequest<unknown>): boolean =>
  request.method === 'POST' && /\/(?:spot\/order|openapi\/v1\/order|spot\/batchOrders)$/.test(request.path);

/** Delays a call's subscription until the client-side limit lets it start; it takes `weight` slots (default 1). @internal */
export type RateGate = <T>(call: Observable<T>, isOrder: boolean, weight?: number) => Observable<T>;

/**
 * A client-side rate limit: calls start in subscription order, each at the earliest time that keeps at most
 * `requestsPerSecond` starts, `ordersPerSecond` order placements and `queriesPerSecond` other calls in any
 * one-second window; a call waits
 * on `scheduler` before it is subscribed (so it is signed when it starts). Unsubscribing a waiting call frees
 * its slot. Without limits the call is returned as it is.
 * @internal
 */
export function rateGate(limit: RestRateLimit | undefined, scheduler: SchedulerLike): RateGate {
  const requests = windowOf('rateLimit.requestsPerSecond', limit?.requestsPerSecond);
  const orders = windowOf('rateLimit.ordersPerSecond', limit?.ordersPerSecond);
  const queries = windowOf('rateLimit.queriesPerSecond', limit?.queriesPerSecond);
  if (requests === unlimited && orders === unlimited && queries === unlimited) return (call) => call;
  // Every start is booked in `all` (the requests window, or one without a limit), so calls start in order.
  const all = requests !== unlimited ? requests : slidingWindow(Number.MAX_SAFE_INTEGER);
  return (call, isOrder, weight = 1) =>
    defer(() => {
      const now = scheduler.now();
      const kind = isOrder ? orders : queries;
      const at = Math.max(all.earliest(now, weight), kind.earliest(now, weight));
      all.book(at, weight);
      kind.book(at, weight);
      // Within the limits: the call starts now, in this very subscription (no hop; a started call keeps its slot).
      if (at <= now) return call;
      let started = false;
      return timer(at - now, scheduler).pipe(
        concatMap(() => {
          started = true;
          return call;
        }),
        finalize(() => {
          if (started) return;
          all.release(at, weight);
          kind.release(at, weight);
        }),
      );
    });
}
