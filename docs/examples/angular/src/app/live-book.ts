import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { takeUntilDestroyed, toObservable, toSignal } from '@angular/core/rxjs-interop';
import { bySymbol, valueFor } from './for-symbol';
import { MarketService } from './market.service';

/**
 * A live order book (best bids and asks, spread, mid) and the last trades of one symbol, which may change.
 *
 * Switching symbols: `bySymbol` moves both subscriptions to the new symbol (the old topics are cancelled) and
 * starts each with a loading state; the template shows data only when it is the selected symbol's (`valueFor`),
 * so the old symbol's book and trades never appear under the new name, even for one frame.
 *
 * Teardown follows the component: `toSignal` unsubscribes when the component is destroyed, which cancels both
 * topics (and closes the socket when nothing else listens); the `errors$` subscription made in the constructor
 * ends with `takeUntilDestroyed()` (the component's `DestroyRef`).
 */
@Component({
  selector: 'app-live-book',
  imports: [DatePipe],
  templateUrl: './live-book.html',
  styleUrl: './live-book.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class LiveBook {
  /** The pair to show, e.g. `BTCUSDT`. Changing it switches both subscriptions to the new pair. */
  readonly symbol = input.required<string>();
  /** Levels shown per side. */
  readonly levels = input(5);

  private readonly market = inject(MarketService);
  private readonly symbol$ = toObservable(this.symbol);

  private readonly bookView = toSignal(this.symbol$.pipe(bySymbol((symbol) => this.market.book(symbol, this.levels()))));
  private readonly tradesView = toSignal(this.symbol$.pipe(bySymbol((symbol) => this.market.lastTrades(symbol, 8))));

  /** The selected symbol's book, or `undefined` while it loads. */
  protected readonly book = computed(() => valueFor(this.symbol(), this.bookView()));
  /** The selected symbol's last trades, or `undefined` while they load. */
  protected readonly trades = computed(() => valueFor(this.symbol(), this.tradesView()));
  protected readonly lastError = signal('');

  constructor() {
    // A subscription made in code: ended by the component's DestroyRef.
    this.market.errors$.pipe(takeUntilDestroyed()).subscribe((e) => this.lastError.set(`${e.name}: ${e.message}`));
  }
}
