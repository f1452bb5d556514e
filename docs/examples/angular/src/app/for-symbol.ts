import { type Observable, type OperatorFunction, map, startWith, switchMap } from 'rxjs';

/** One symbol's latest value, or its loading state, tagged with the symbol it belongs to. */
export type ForSymbol<T> =
  | { readonly symbol: string; readonly loading: true }
  | { readonly symbol: string; readonly loading: false; readonly value: T };

/**
 * For each selected symbol, the values of `stream(symbol)` tagged with that symbol, starting with its loading state.
 * `switchMap` unsubscribes the previous symbol's stream the moment another is selected (ex-streams cancels its
 * topic), and the loading state replaces the previous symbol's last value at once: nothing of the old symbol
 * stays on screen under the new name while the new one's first snapshot is on its way.
 */
export function bySymbol<T>(stream: (symbol: string) => Observable<T>): OperatorFunction<string, ForSymbol<T>> {
  return switchMap((symbol) =>
    stream(symbol).pipe(
      map((value): ForSymbol<T> => ({ symbol, loading: false, value })),
      startWith<ForSymbol<T>>({ symbol, loading: true }),
    ),
  );
}

/**
 * What to show for the `selected` symbol: the view's value when it is that symbol's and loaded, else `undefined`
 * (show "loading"). The symbol check matters even with `bySymbol`: an input signal changes at once, while
 * `toObservable(input)` delivers the new symbol a moment later, so for one render the view is still the old one's.
 */
export function valueFor<T>(selected: string, view: ForSymbol<T> | undefined): T | undefined {
  return view !== undefined && view.symbol === selected && !view.loading ? view.value : undefined;
}
