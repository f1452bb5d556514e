import * as E from 'fp-ts/Either';
import { defer, map, type Observable } from 'rxjs';
import { ListenKeyResponseCodec } from '../codecs/listenKey';
import { decodeWith } from '../codecs/decode';
import { ConfigError } from '../errors';
import { parseBody } from './parseBody';
import { rejection } from './rejection';
import type { Answer, Transport } from './transport';

/** Path of the listen-key calls (SPEC, Endpoints). @internal */
export const USER_DATA_STREAM_PATH = '/api/v1/userDataStream';

const isOk = (status: number): boolean => status >= 200 && status < 300;

function checkKey(listenKey: string): void {
  if (typeof listenKey !== 'string' || listenKey === '') throw new ConfigError('listenKey', 'must be a non-empty string');
}

/** `POST /api/v1/userDataStream`, signed; a 2xx answer without `listenKey` is a rejection. @internal */
export function createListenKeyCall(send: Transport): Observable<string> {
  return send({ method: 'POST', path: USER_DATA_STREAM_PATH, security: 'USER_STREAM' }, true).pipe(
    map((answer: Answer) => {
      const { status, text, secrets } = answer;
      if (!isOk(status)) throw rejection(answer);
      const parsed = parseBody(text, secrets);
      const decoded = E.isRight(parsed) ? decodeWith(ListenKeyResponseCodec, parsed.right) : undefined;
      if (decoded && E.isRight(decoded) && decoded.right.listenKey !== '') return decoded.right.listenKey;
      throw rejection(answer, 'response has no listenKey');
    }),
  );
}

/** `PUT` (extend, success only on HTTP 200) or `DELETE` (close, any 2xx) with the key in the query. @internal */
export function listenKeyCall(send: Transport, method: 'PUT' | 'DELETE', listenKey: string): Observable<void> {
  return defer(() => {
    checkKey(listenKey);
    return send({ method, path: USER_DATA_STREAM_PATH, security: 'USER_STREAM', query: [['listenKey', listenKey]] }, true);
  }).pipe(
    map((answer: Answer): void => {
      const accepted = method === 'PUT' ? answer.status === 200 : isOk(answer.status);
      if (!accepted) throw rejection(answer);
    }),
  );
}
