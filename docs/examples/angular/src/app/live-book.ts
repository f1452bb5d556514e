import { AsyncPipe, DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { takeUntilDestroyed, toObservable } from '@angular/core/rxjs-interop';
import { switchMap } from 'rxjs';
import { MarketService } from './market.service';

/**
 * A live order book (best bids and asks, spread, mid) and the last trades of one symbol.
 *
 * Teardown follows the component: the `async` pipe unsubscribes from `book$` and `trades$` when the view is
 * destroyed, which cancels both topics (and closes the socket when nothing else listens); the `errors$`
 * subscription made in the constructor ends with `takeUntilDestroyed()` (the component's `DestroyRef`).
 */
@Component({
  selector: 'app-live-book',
  imports: [AsyncPipe, DatePipe],
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

  protected readonly book$ = this.symbol$.pipe(switchMap((symbol) => this.market.book(symbol, this.levels())));
  protected readonly trades$ = this.symbol$.pipe(switchMap((symbol) => this.market.lastTrades(symbol, 8)));
  protected readonly lastError = signal('');

  constructor() {
    // A subscription made in code: ended by the component's DestroyRef.
    this.market.errors$.pipe(takeUntilDestroyed()).subscribe((e) => this.lastError.set(`${e.name}: ${e.message}`));
  }
}
