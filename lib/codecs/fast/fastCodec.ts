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
  return new FastType<A, O>(slow, check);
}

/**
 * The class of the codecs {@link fastCodec} builds: an io-ts `Type` that also carries its fast check, so
 * the stream layers can run the check directly (no io-ts context, no `Either`) and call `decode` only
 * when it fails. @internal
 */
class FastType<A, O> extends t.Type<A, O, unknown> {
  constructor(
    slow: t.Type<A, O, unknown>,
    readonly check: FastCheck<A>,
  ) {
    super(
      slow.name,
      slow.is,
      (u, c) => {
        const a = check(u);
        return a === FAIL ? slow.validate(u, c) : t.success(a);
      },
      slow.encode,
    );
  }
}

/**
 * The fast check of a codec built by {@link fastCodec}, or `undefined` for any other decoder. A check
 * returns the decoded value or `FAIL` (then `decode` gives the errors). @internal
 */
export function fastCheckOf<A>(decoder: t.Decoder<unknown, A>): FastCheck<A> | undefined {
  return decoder instanceof FastType ? (decoder.check as FastCheck<A>) : undefined;
}
