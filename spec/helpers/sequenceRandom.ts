/**
 * A deterministic `random` for backoff tests: returns the given values in order, cycling.
 */
export function sequenceRandom(values: readonly number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}
