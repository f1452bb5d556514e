import { TestScheduler } from 'rxjs/testing';

/** Replaces every Error (at any depth) by `{ name, message, ...own fields }` so errors compare by content. */
export function normalizeErrors(value: unknown): unknown {
  if (value instanceof Error) {
    const fields: Record<string, unknown> = { name: value.name, message: value.message };
    for (const [k, v] of Object.entries(value)) fields[k] = normalizeErrors(v);
    return fields;
  }
  if (Array.isArray(value)) return value.map(normalizeErrors);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeErrors(v)]));
  }
  return value;
}

/** A `TestScheduler` whose assertions compare errors (also inside values) by name, message and fields. */
export function errorAwareTestScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(normalizeErrors(actual)).toEqual(normalizeErrors(expected)));
}
