import { isDecimalGrammar } from '../decimal/grammar';
import { AsIs, asIsTest, FAIL, type Fast, type FastCheck, passesAsIs, unknownCheck } from './fastCheckBase';

/**
 * The fast checks of the io-ts collections (`t.array`, a book's levels, `t.tuple`), from their parts' checks.
 * @internal
 * @module
 */

const unknownArrayCheck = (u: unknown): Fast<unknown[]> => (Array.isArray(u) ? u : FAIL);

/**
 * `t.array(item)`: the input array itself when no element converts, else a copy with the converted
 * elements. `asIs` is the item's inline test. @internal
 */
export function arrayCheck<A>(item: FastCheck<A>, asIs: AsIs = AsIs.none): FastCheck<A[]> {
  if (item === unknownCheck || asIs === AsIs.any) return unknownArrayCheck as FastCheck<A[]>;
  // `never` for AsIs.none: every element goes to the item's check.
  const passes = asIsTest(asIs);
  return (u, prechecked) => {
    if (!Array.isArray(u)) return FAIL;
    let out: unknown[] = u;
    const n = u.length;
    for (let i = 0; i < n; i++) {
      const a: unknown = u[i];
      if (passes(a)) continue;
      const b = item(a, prechecked);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = u.slice();
        out[i] = b;
      }
    }
    // Assembled from checked elements only: the one cast of this combinator.
    return out as A[];
  };
}

/**
 * `t.array(t.tuple([first, second]))` (depth levels): a level of exactly two elements that pass their inline
 * tests is checked in the loop itself; any other goes to the pair's check `pair`. @internal
 */
export function pairArrayCheck(pair: FastCheck, first: AsIs, second: AsIs): FastCheck<unknown[]> {
  const firstPasses = asIsTest(first);
  const secondPasses = asIsTest(second);
  // Both decimal text (the levels of a book): the test written with direct calls, which inline.
  const decimals = first === AsIs.decimalText && second === AsIs.decimalText;
  return (u, prechecked) => {
    if (!Array.isArray(u)) return FAIL;
    // Levels the JSON step scanned (pairs of decimal text, checked there) are not scanned twice.
    if (decimals && prechecked !== undefined && prechecked.take(u)) return u;
    let out: unknown[] = u;
    const n = u.length;
    for (let i = 0; i < n; i++) {
      const a: unknown = u[i];
      if (Array.isArray(a) && a.length === 2) {
        const x: unknown = a[0];
        const y: unknown = a[1];
        if (
          decimals
            ? typeof x === 'string' && typeof y === 'string' && isDecimalGrammar(x) && isDecimalGrammar(y)
            : firstPasses(x) && secondPasses(y)
        ) {
          continue;
        }
      }
      const b = pair(a);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = u.slice();
        out[i] = b;
      }
    }
    return out;
  };
}

/**
 * `t.tuple(items)`: elements beyond `items.length` are dropped (a copy), a missing one is `undefined` for
 * its check, as io-ts does. Pairs (depth levels) get a loop-free check. `asIs` are the items' inline
 * tests. @internal
 */
export function tupleCheck(items: readonly FastCheck[], asIs: readonly AsIs[]): FastCheck<unknown[]> {
  const n = items.length;
  if (n === 2) {
    const first = items[0] as FastCheck;
    const second = items[1] as FastCheck;
    const firstPasses = asIsTest(asIs[0] as AsIs);
    const secondPasses = asIsTest(asIs[1] as AsIs);
    return (u) => {
      if (!Array.isArray(u)) return FAIL;
      const x: unknown = u[0];
      const y: unknown = u[1];
      if (u.length === 2 && firstPasses(x) && secondPasses(y)) return u;
      const a = first(x);
      if (a === FAIL) return FAIL;
      const b = second(y);
      if (b === FAIL) return FAIL;
      return u.length === 2 && a === x && b === y ? u : [a, b];
    };
  }
  return (u) => {
    if (!Array.isArray(u)) return FAIL;
    let out: unknown[] = u.length > n ? u.slice(0, n) : u;
    for (let i = 0; i < n; i++) {
      const a: unknown = u[i];
      if (passesAsIs(asIs[i] as AsIs, a)) continue;
      const b = (items[i] as FastCheck)(a);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = u.slice();
        out[i] = b;
      }
    }
    return out;
  };
}
