import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { LiveBook } from './live-book';
import { MarketService } from './market.service';
import { MARKET_STREAM_URL, MARKET_SYMBOL, MARKET_SYMBOLS } from './stream-config';

/**
 * The shell: connection status (which never opens the socket by itself), a symbol dropdown, and a button that
 * creates and destroys the live book. Destroying it unsubscribes every stream, so the socket closes; creating it
 * again opens a new one. Choosing another symbol moves the book's subscriptions to it on the same socket.
 *
 * The status is read with `toSignal`, not the `async` pipe: its last changes (topics 0, closed) happen while
 * Angular is destroying the live book, in the middle of checking this very view. A signal marks the view for
 * another pass of the same tick; an `async` pipe's markForCheck there is lost until something else triggers
 * change detection (see docs/angular.md, "Values that change during change detection").
 */
@Component({
  selector: 'app-root',
  imports: [LiveBook],
  template: `
    <header>
      <h1>ex-streams · Angular</h1>
      <p class="mono">{{ url }}</p>
      <p>status: <span id="status" class="mono">{{ status() }}</span></p>
      <label>
        symbol
        <select id="symbol" (change)="selected.set($any($event.target).value)">
          @for (s of symbols; track s) {
            <option [value]="s" [selected]="s === selected()">{{ s }}</option>
          }
        </select>
      </label>
      <button id="toggle" type="button" (click)="live.set(!live())">{{ live() ? 'Stop' : 'Start' }}</button>
    </header>
    @if (live()) {
      <app-live-book [symbol]="selected()" />
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class App {
  protected readonly url = inject(MARKET_STREAM_URL);
  protected readonly symbols = inject(MARKET_SYMBOLS);
  protected readonly selected = signal(inject(MARKET_SYMBOL));
  protected readonly status = toSignal(inject(MarketService).statusLine(), { initialValue: '' });
  protected readonly live = signal(true);
}
