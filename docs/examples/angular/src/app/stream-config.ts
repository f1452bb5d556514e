import { DOCUMENT, InjectionToken, inject } from '@angular/core';

/** The simulator's address when the page says nothing (`npx ex-streams-simulator --port 8080`). */
const DEFAULT_STREAM_URL = 'ws://127.0.0.1:8080/quote/ws/v1';

interface PageGlobals {
  EX_STREAMS_WS?: unknown;
  EX_STREAMS_SYMBOL?: unknown;
  EX_STREAMS_SYMBOLS?: unknown;
}

/**
 * Reads a setting from the query string (`?ws=...&symbol=...`), then from a global the page may set. Through
 * `DOCUMENT`, never the global `location`: on a server (SSR) there is no window, and this reads nothing.
 */
function pageSetting(param: string, global: keyof PageGlobals): string | undefined {
  const window = inject(DOCUMENT).defaultView;
  const fromQuery = window ? new URLSearchParams(window.location.search).get(param) : null;
  if (fromQuery) return fromQuery;
  const fromGlobal = (window as PageGlobals | null)?.[global];
  return typeof fromGlobal === 'string' && fromGlobal !== '' ? fromGlobal : undefined;
}

/**
 * The public stream address (`{public_stream_url}`, path `/quote/ws/v1`), chosen at runtime so one build
 * serves every environment: `?ws=` in the page address, else `window.EX_STREAMS_WS`, else the local simulator.
 * Override it in tests or in `app.config.ts` with `{ provide: MARKET_STREAM_URL, useValue: '...' }`.
 */
export const MARKET_STREAM_URL = new InjectionToken<string>('MARKET_STREAM_URL', {
  providedIn: 'root',
  factory: () => pageSetting('ws', 'EX_STREAMS_WS') ?? DEFAULT_STREAM_URL,
});

/** The pair shown first: `?symbol=`, else `window.EX_STREAMS_SYMBOL`, else `BTCUSDT`. */
export const MARKET_SYMBOL = new InjectionToken<string>('MARKET_SYMBOL', {
  providedIn: 'root',
  factory: () => (pageSetting('symbol', 'EX_STREAMS_SYMBOL') ?? 'BTCUSDT').toUpperCase(),
});

/** The pairs of the symbol dropdown: `?symbols=BTCUSDT,ETHUSDT`, else those two; the first pair shown is among them. */
export const MARKET_SYMBOLS = new InjectionToken<readonly string[]>('MARKET_SYMBOLS', {
  providedIn: 'root',
  factory: () => {
    const listed = (pageSetting('symbols', 'EX_STREAMS_SYMBOLS') ?? 'BTCUSDT,ETHUSDT').toUpperCase().split(',').filter((s) => s !== '');
    const first = inject(MARKET_SYMBOL);
    return listed.includes(first) ? listed : [first, ...listed];
  },
});
