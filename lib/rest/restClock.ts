import * as E from 'fp-ts/Either';
import { catchError, defer, EMPTY, ignoreElements, share, tap, type Observable, type SchedulerLike } from 'rxjs';
import { ServerTimeCodec } from '../codecs/rest/serverTime';
import { decodeBody } from './parseBody';
import type { Answer, Transport } from './transport';

/** Path of the service's clock (SPEC-compatible `GET /api/v1/time`). @internal */
export const SERVER_TIME_PATH = '/api/v1/time';
/** How long a clock estimate is trusted before the next signed call refreshes it, in ms. @internal */
export const DEFAULT_SERVER_TIME_REFRESH_MS = 600_000;

/** The REST client's estimate of `serverTime - localTime`. @internal */
export interface RestClock {
  /** The current estimate in ms (0 before the first sample). */
  offsetMs(): number;
  /** How far off the estimate can be: half the round trip it was measured over (0 before the first sample). */
  offsetErrorMs(): number;
  /**
   * Completes (without a value) once an estimate younger than the refresh period exists: at once when there
   * is one, else after one `GET /api/v1/time` (shared by concurrent callers). `force` asks the service even
   * when the estimate is young (after a -1021). Never errors: an unreachable or odd time endpoint leaves the
   * estimate as it is until the next refresh.
   */
  ready(force: boolean): Observable<never>;
  /** Whether an estimate was ever learned (an answer of the time endpoint or a sample), however old. */
  known(): boolean;
  /** A sample from elsewhere (a public pong): kept when its round trip is no longer than the current one's, or the current one is old. */
  sample(offsetMs: number, rttMs: number): void;
}

/**
 * A clock estimate learned on demand: no timer runs; a signed call finds the estimate missing or older than
 * `refreshMs` and asks `GET /api/v1/time` first. A sample's offset is `serverTime - (sentAt + receivedAt) / 2`
 * (the server read its clock half a round trip after we sent).
 * @internal
 */
export function restClock(send: Transport, scheduler: SchedulerLike, refreshMs: number): RestClock {
  let offset = 0;
  let rtt = Number.POSITIVE_INFINITY;
  let learnedAt: number | undefined;
  const accept = (offsetMs: number, rttMs: number): void => {
    offset = Math.round(offsetMs);
    rtt = rttMs;
    learnedAt = scheduler.now();
  };
  const fresh = (): boolean => learnedAt !== undefined && scheduler.now() - learnedAt < refreshMs;
  const learn = (answer: Answer): void => {
    const body = answer.status >= 200 && answer.status < 300 ? decodeBody(answer.text, ServerTimeCodec, answer.secrets) : undefined;
    if (body !== undefined && E.isRight(body)) {
      accept(body.right.serverTime - (answer.sentAt + answer.receivedAt) / 2, answer.receivedAt - answer.sentAt);
    } else {
      learnedAt = scheduler.now(); // not again before the next refresh: a service without this endpoint costs one call per period
    }
  };
  const sync$ = defer(() => send({ method: 'GET', path: SERVER_TIME_PATH }, false)).pipe(
    tap(learn),
    catchError(() => {
      learnedAt = scheduler.now();
      return EMPTY;
    }),
    ignoreElements(),
    share(),
  );
  return {
    offsetMs: () => offset,
    offsetErrorMs: () => (learnedAt === undefined || !Number.isFinite(rtt) ? 0 : rtt / 2),
    known: () => Number.isFinite(rtt),
    ready: (force) => defer(() => (!force && fresh() ? EMPTY : sync$)),
    sample(offsetMs, rttMs) {
      if (!Number.isFinite(offsetMs) || !Number.isFinite(rttMs) || rttMs < 0) return;
      if (!fresh() || rttMs <= rtt) accept(offsetMs, rttMs);
    },
  };
}
