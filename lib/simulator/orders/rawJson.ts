/**
 * A JSON number written verbatim (e.g. a 64-bit id that `JSON.stringify` cannot express).
 * @internal
 */
export class RawNumber {
  constructor(readonly digits: string) {}
}

/** A value {@link rawJson} can write. @internal */
export type RawJsonValue =
  | string
  | number
  | boolean
  | null
  | RawNumber
  | readonly RawJsonValue[]
  | { readonly [key: string]: RawJsonValue };

/** JSON text in which {@link RawNumber}s appear as bare number literals. @internal */
export function rawJson(value: RawJsonValue): string {
  if (value instanceof RawNumber) return value.digits;
  if (Array.isArray(value)) return `[${value.map(rawJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as { readonly [key: string]: RawJsonValue };
    return `{${Object.entries(obj).map(([k, v]) => `${JSON.stringify(k)}:${rawJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
