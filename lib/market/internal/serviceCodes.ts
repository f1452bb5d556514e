/**
 * The service family's error codes on the public stream, and what each means for a subscription (the table in
 * docs/market-streams.md, "When the service says no"). One place: the batcher (`requestBatcher`) asks
 * {@link serviceCodeKind} and {@link verdictOf} and acts on the answer, nothing else reads a code.
 *
 * @internal
 * @module
 */

/**
 * What a code says about the request it answers:
 * - `'success'`: an acknowledgement (code 0, sent by some deployments);
 * - `'rejected'`: the request itself is wrong (unknown symbol or topic, a bad parameter): sending it again cannot
 *   help, the topic ends with a `SubscriptionRejectedError` (once it is known which topic it is);
 * - `'rate-limit'`: too many requests: sent again after a backoff;
 * - `'busy'`: the service failed or is shutting down: sent again after a backoff;
 * - `'unknown'`: a code this table does not know: treated like `'busy'` (the service's word never ends a topic
 *   unless it is a known rejection of the request).
 * @internal
 */
export type ServiceCodeKind = 'success' | 'rejected' | 'rate-limit' | 'busy' | 'unknown';

/** The codes that reject the request itself, with the service's words. @internal */
export const REJECTION_CODES: ReadonlyMap<number, string> = new Map([
  [-100001, 'Invalid request'],
  [-100010, 'Invalid Symbols! (or Invalid Topic!)'],
  [-100011, 'Not supported symbols'],
  [-100012, 'Parameter symbol [String] missing!'],
  [-1020, 'This operation is not supported'],
  [-1121, 'Invalid symbol'],
]);

/** Parameter errors (`-1100` illegal characters … `-1130` invalid parameter): rejections. @internal */
export const PARAMETER_CODES = { from: -1130, to: -1100 } as const;

/** Rate limits. @internal */
export const RATE_LIMIT_CODES: ReadonlyMap<number, string> = new Map([
  [-1003, 'Too many requests'],
  [-1015, 'Too many new orders'],
]);

/** Failures and overload of the service. @internal */
export const BUSY_CODES: ReadonlyMap<number, string> = new Map([
  [-1000, 'Unknown error while processing the request'],
  [-1001, 'Internal error (disconnected)'],
  [-1006, 'Unexpected response from the message bus'],
  [-1007, 'Timeout waiting for the backend'],
  [-1016, 'Service shutting down'],
]);

/** A code as sent (number, or text such as `"-100010"`), as an integer; `undefined` when it is not one. */
function codeNumber(code: number | string): number | undefined {
  const n = typeof code === 'number' ? code : /^\s*[+-]?\d{1,12}\s*$/.test(code) ? Number(code) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * What `code` (number or text, as the service sent it) means for the request it answers (see
 * {@link ServiceCodeKind}). Anything that is not an integer of the table is `'unknown'`.
 * @internal
 */
export function serviceCodeKind(code: number | string): ServiceCodeKind {
  const n = codeNumber(code);
  if (n === undefined) return 'unknown';
  if (n === 0) return 'success';
  if (REJECTION_CODES.has(n) || (n >= PARAMETER_CODES.from && n <= PARAMETER_CODES.to)) return 'rejected';
  if (RATE_LIMIT_CODES.has(n)) return 'rate-limit';
  if (BUSY_CODES.has(n)) return 'busy';
  return 'unknown';
}

/**
 * What to do about an error frame, from what its code says and the units it concerns (each unit: the topics of
 * one `sub` frame in flight, or the topics the frame names; see `requestBatcher`):
 * - `answered`: an acknowledgement of one unit (of several, unattributable: the data will tell);
 * - `rejected`: a rejection of one topic alone: it ends;
 * - `split`: a rejection of several topics, or of several frames: each unit is split to find the culprit;
 * - `retry`: refused for now: every topic is sent again after a backoff (reported even when none is known);
 * - `unattributed`: a rejection that concerns no topic.
 * @internal
 */
export type Verdict<S> =
  | { readonly kind: 'answered'; readonly topics: readonly S[] }
  | { readonly kind: 'rejected'; readonly topic: S }
  | { readonly kind: 'split'; readonly units: readonly (readonly S[])[] }
  | { readonly kind: 'retry'; readonly topics: readonly S[]; readonly reason: 'rate-limit' | 'busy' | 'unknown' }
  | { readonly kind: 'unattributed' };

/** See {@link Verdict}. @internal */
export function verdictOf<S>(kind: ServiceCodeKind, units: readonly (readonly S[])[]): Verdict<S> {
  switch (kind) {
    case 'success':
      return { kind: 'answered', topics: units.length === 1 ? units[0]! : [] };
    case 'rejected': {
      if (units.length === 0) return { kind: 'unattributed' };
      const only = units.length === 1 && units[0]!.length === 1 ? units[0]![0] : undefined;
      return only !== undefined ? { kind: 'rejected', topic: only } : { kind: 'split', units };
    }
    case 'rate-limit':
    case 'busy':
    case 'unknown':
      return { kind: 'retry', topics: units.flat(), reason: kind };
    default: {
      const never: never = kind;
      return never;
    }
  }
}
