/**
 * Server-side rendering (docs/angular.md, "Server-side rendering"): importing ex-streams and creating its
 * streams on a server reads no browser global (`location`, `window`, `document`, `navigator`, `WebSocket`,
 * `fetch`), starts no timer and opens nothing, in the Node build and in the browser build's modules (an SSR
 * bundle may resolve either). Only a subscription opens a socket; `status$` does not. Globals are trapped while
 * the library is loaded in an isolated module registry; only accesses made from lib/ count.
 */
import * as path from 'node:path';
import type * as Library from '../../lib/index';

const BROWSER_GLOBALS = ['location', 'window', 'document', 'navigator', 'WebSocket', 'fetch'] as const;
const TIMERS = ['setTimeout', 'setInterval', 'setImmediate'] as const;

const LIB = path.join(__dirname, '..', '..', 'lib') + path.sep;

/** Whether the current call comes from the library's sources (a frame in lib/, not in a dependency). */
const fromLibrary = (): boolean => (new Error().stack ?? '').split('\n').slice(3).some((frame) => frame.includes(LIB));

/** Runs `body` with the browser globals and the timers trapped; returns what the library touched. */
function touched(body: () => void): string[] {
  const seen: string[] = [];
  const g = globalThis as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const name of [...BROWSER_GLOBALS, ...TIMERS]) {
    const descriptor = Object.getOwnPropertyDescriptor(g, name);
    saved.set(name, descriptor);
    const original = descriptor?.get ? descriptor.get.call(g) : descriptor?.value;
    Object.defineProperty(g, name, {
      configurable: true,
      get: () => {
        if (fromLibrary()) seen.push(name);
        return original;
      },
    });
  }
  try {
    body();
  } finally {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(g, name, descriptor);
      else delete g[name];
    }
  }
  return seen;
}

describe.each([
  ['the Node build', false],
  ['the browser build', true],
])('on a server, %s', (_, browserBuild) => {
  const load = (): typeof Library => {
    let lib: typeof Library | undefined;
    jest.isolateModules(() => {
      if (browserBuild) {
        jest.doMock('../../lib/socket/defaultWebSocketCtor', () => jest.requireActual('../../lib/socket/defaultWebSocketCtor.browser'));
        jest.doMock('../../lib/frame/defaultInflateRaw', () => jest.requireActual('../../lib/frame/defaultInflateRaw.browser'));
        jest.doMock('../../lib/auth/secretKeySigner', () => jest.requireActual('../../lib/auth/secretKeySigner.browser'));
        jest.doMock('../../lib/rest/defaultFetch', () => jest.requireActual('../../lib/rest/defaultFetch.browser'));
      }
      lib = jest.requireActual<typeof Library>('../../lib/index');
    });
    if (lib === undefined) throw new Error('not loaded');
    return lib;
  };

  it('importing the library touches no browser global and starts no timer', () => {
    expect(touched(() => load())).toEqual([]);
  });

  it('creating marketStreams and its streams, and reading status$, touch nothing and open no socket', () => {
    const lib = load();
    const statuses: string[] = [];
    const seen = touched(() => {
      const market = lib.marketStreams({ url: 'ws://127.0.0.1:9/quote/ws/v1' });
      market.depth('BTCUSDT').pipe(lib.orderBook());
      market.trades('BTCUSDT');
      market.status$.subscribe((s) => statuses.push(s.connection.type)).unsubscribe();
    });
    expect(seen).toEqual([]);
    expect(statuses).toEqual(['closed']);
  });

  if (browserBuild) {
    it('(the trap works) subscribing reads the global WebSocket, from the library, at subscribe time', () => {
      const lib = load();
      const seen = touched(() => {
        const market = lib.marketStreams({ url: 'ws://127.0.0.1:9/quote/ws/v1', connection: { reconnect: false } });
        market.depth('BTCUSDT').subscribe({ error: () => undefined }).unsubscribe();
      });
      expect(seen).toContain('WebSocket');
    });
  }
});
