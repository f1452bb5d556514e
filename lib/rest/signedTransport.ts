import { concat, concatMap, defer, merge, of, throwError, type Observable } from 'rxjs';
import { numericCode, rejection } from './rejection';
import type { RestClock } from './restClock';
import type { Answer, Transport } from './transport';
import type { RestClientConfig, RestRequest } from './types';
import { problemOf } from './transport';

/** The service's code for a timestamp outside the accepted window. @internal */
export const TIMESTAMP_REJECTED_CODE = -1021;

const isTimestampRejection = (answer: Answer): boolean =>
  (answer.status < 200 || answer.status >= 300) && numericCode(rejection(answer).code) === TIMESTAMP_REJECTED_CODE;

/**
 * Signed calls on the service's clock: before the first signed call the clock is learned (one
 * `GET /api/v1/time`); once an estimate exists, a call that finds it old is signed with it at once and the
 * refresh goes out just after it (the call completes when both have answered), so no signed call waits for the
 * clock again (an estimate minutes old is still right to a few ms; the recvWindow is seconds). A -1021 answer
 * refreshes it and sends the call once more, signed anew. Unsigned calls, and calls that fail the configuration
 * checks, go straight to `send`.
 * @internal
 */
export function onServerClock(config: RestClientConfig, canSign: boolean, send: Transport, clock: RestClock): Transport {
  // merge subscribes in order: the call's own request leaves first, on the warm connection.
  const signedOnce = (request: RestRequest<unknown>): Observable<Answer> =>
    clock.known() ? merge(send(request, true), clock.ready(false)) : concat(clock.ready(false), send(request, true));
  return (request, signed) =>
    defer(() => {
      if (!signed) return send(request, false);
      const problem = problemOf(config, request, canSign, true);
      if (problem) return throwError(() => problem);
      return signedOnce(request).pipe(
        concatMap((answer) => (isTimestampRejection(answer) ? concat(clock.ready(true), send(request, true)) : of(answer))),
      );
    });
}
