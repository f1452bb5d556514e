import { FAIL, type Fast, type FastCheck } from './scalars';
import { isRecord } from '../../internal/guards';

/**
 * Fast checks of the composite combinators (`struct`, `t.array`, `t.tuple`), with the same output
 * semantics: the input itself when nothing was transformed, else a shallow copy with the transformed
 * fields (or elements) replaced. No `Either`, no context, no closure per field.
 *
 * @internal
 * @module
 */

type Fields = Readonly<Record<string, FastCheck>>;

/**
 * The fast check of `struct(name, required, optional)`: required fields must pass, optional ones pass or
 * are `undefined`; extra fields are kept.
 * @internal
 */
export function fastStruct<A>(required: Fields, optional: Fields = {}): FastCheck<A> {
  const rKeys = Object.keys(required);
  const rChecks = rKeys.map((k) => required[k] as FastCheck);
  const oKeys = Object.keys(optional);
  const oChecks = oKeys.map((k) => optional[k] as FastCheck);
  const nr = rKeys.length;
  const no = oKeys.length;
  return (u: unknown): Fast<A> => {
    if (!isRecord(u)) return FAIL;
    let out = u;
    for (let i = 0; i < nr; i++) {
      const k = rKeys[i] as string;
      const a = u[k];
      const b = (rChecks[i] as FastCheck)(a);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = { ...u };
        out[k] = b;
      }
    }
    for (let i = 0; i < no; i++) {
      const k = oKeys[i] as string;
      const a = u[k];
      if (a === undefined) continue;
      const b = (oChecks[i] as FastCheck)(a);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = { ...u };
        out[k] = b;
      }
    }
    return out as A;
  };
}

/** The fast check of `t.array(item)`. @internal */
export function fastArray<A>(item: FastCheck<A>): FastCheck<A[]> {
  return (u: unknown): Fast<A[]> => {
    if (!Array.isArray(u)) return FAIL;
    let out: unknown[] = u;
    const n = u.length;
    for (let i = 0; i < n; i++) {
      const a: unknown = u[i];
      const b = item(a);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = u.slice();
        out[i] = b;
      }
    }
    return out as A[];
  };
}

/** The fast check of `t.tuple([first, second])`: extra elements are dropped (a copy), like io-ts. @internal */
export function fastPair<A, B>(first: FastCheck<A>, second: FastCheck<B>): FastCheck<[A, B]> {
  return (u: unknown): Fast<[A, B]> => {
    if (!Array.isArray(u) || u.length < 2) return FAIL;
    const x: unknown = u[0];
    const y: unknown = u[1];
    const a = first(x);
    if (a === FAIL) return FAIL;
    const b = second(y);
    if (b === FAIL) return FAIL;
    return u.length === 2 && a === x && b === y ? (u as [A, B]) : [a, b];
  };
}
