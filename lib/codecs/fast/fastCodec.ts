import * as t from 'io-ts';
import { FAIL, type FastCheck } from './scalars';

/**
 * Wraps a combinator codec with a fast check of its common valid case: `validate` runs `check` (a tight,
 * allocation-free loop) and returns its value when it passes; otherwise it runs the combinator codec on
 * the same input and context, so failures carry exactly the combinator's errors and paths. `name`, `is`
 * and `encode` are the combinator's.
 *
 * Correctness rests on one property, tested with fast-check in `spec/codecs/fast.spec.ts`: whenever
 * `check` passes, the combinator succeeds with an equal value (the same object when it returns its input).
 * @internal
 */
export function fastCodec<A, O>(slow: t.Type<A, O, unknown>, check: FastCheck<A>): t.Type<A, O, unknown> {
  return new t.Type<A, O, unknown>(
    slow.name,
    slow.is,
    (u, c) => {
      const a = check(u);
      return a === FAIL ? slow.validate(u, c) : t.success(a);
    },
    slow.encode,
  );
}
