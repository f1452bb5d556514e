import { Observable } from 'rxjs';
import { ConfigError, RequestFailedError } from '../errors';
import { redact } from '../internal/redact';

/** Status and text of an HTTP answer. @internal */
export interface RawResponse {
  readonly status: number;
  readonly text: string;
  /** The `Retry-After` header, when the answer had one. */
  readonly retryAfter?: string;
}

/** What {@link fetchText} sends. @internal */
export interface FetchCall {
  readonly method: string;
  readonly url: string;
  /** The path for errors: no query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Literal values to redact from failure reasons. */
  readonly secrets: readonly (string | undefined)[];
}

/** Error-like check that also works across realms (an `Error` of another global is not `instanceof Error`). */
function messageOf(value: unknown): string | undefined {
  const message = (value as { message?: unknown } | null | undefined)?.message;
  return typeof value === 'object' && typeof message === 'string' ? message : undefined;
}

function reasonOf(error: unknown): string {
  const message = messageOf(error);
  if (message === undefined) return String(error);
  const detail = messageOf((error as { cause?: unknown }).cause);
  return detail && detail !== message ? `${message} (${detail})` : message;
}

/**
 * A cold observable of one fetch call: emits the status and body text once and completes; a network failure
 * becomes a {@link RequestFailedError} (redacted reason, path without query). Unsubscribing before the answer
 * aborts the request through its `AbortController`.
 * @internal
 */
export function fetchText(fetchFn: typeof fetch | undefined, call: FetchCall): Observable<RawResponse> {
  return new Observable<RawResponse>((subscriber) => {
    const f = fetchFn ?? (globalThis as { fetch?: typeof fetch }).fetch;
    if (typeof f !== 'function') {
      subscriber.error(new ConfigError('fetch', 'is not available here; pass a fetch function'));
      return undefined;
    }
    const controller = new AbortController();
    let settled = false;
    const fail = (error: unknown): void => {
      settled = true;
      if (controller.signal.aborted) return;
      subscriber.error(new RequestFailedError(call.method, call.path, redact(reasonOf(error), call.secrets)));
    };
    const init: RequestInit = { method: call.method, headers: { ...call.headers }, signal: controller.signal };
    if (call.body !== undefined) init.body = call.body;
    let answer: Promise<RawResponse>;
    try {
      answer = f(call.url, init).then((res) =>
        res.text().then((text): RawResponse => {
          const retryAfter = res.headers?.get?.('retry-after');
          return typeof retryAfter === 'string' ? { status: res.status, text, retryAfter } : { status: res.status, text };
        }),
      );
    } catch (error) {
      fail(error);
      return undefined;
    }
    answer.then((response) => {
      settled = true;
      subscriber.next(response);
      subscriber.complete();
    }, fail);
    return () => {
      if (!settled) controller.abort();
    };
  });
}
