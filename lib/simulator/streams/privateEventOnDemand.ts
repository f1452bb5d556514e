import { isRecord } from '../../internal/guards';
import type { PrivateEventOut } from './privateStream';

/**
 * A private event given to `pushPrivateEvent` (an object, or its exact JSON object text) as it is pushed: kind
 * `other`, its `e` as the recorded id, its `E` when it has an integer one (else `now`, for the record only).
 * Throws on text that is not a JSON object.
 * @internal
 */
export function privateEventOnDemand(event: Readonly<Record<string, unknown>> | string, now: number): PrivateEventOut {
  const json = typeof event === 'string' ? event.trim() : JSON.stringify(event);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  if (!isRecord(value)) throw new Error('pushPrivateEvent needs an object, or the JSON text of one');
  const E = Number(value['E']);
  return { kind: 'other', E: Number.isSafeInteger(E) ? E : now, id: typeof value['e'] === 'string' ? value['e'] : '', json };
}
