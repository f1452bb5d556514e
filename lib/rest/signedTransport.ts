import { concat, concatMap, defer, of, throwError, type Observable } from 'rxjs';
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
 * Signed calls on the service's clock: before a signed call the clock estimate is made fresh (one
 * `GET /api/v1/time` when missing or old); a -1021 answer refreshes it and sends the call once more, signed
 * anew. Unsigned calls, and calls that fail the configuration checks, go straight to `send`.
 * @internal
 */
export function onServerClock(config: RestClientConfig, canSign: boolean, send: Transport, clock: RestClock): Transport {
  const signedOnce = (request: RestRequest<unknown>): Observable<Answer> => concat(clock.ready(false), send(request, true));
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
