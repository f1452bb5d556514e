import { defer, from, map, type Observable, of } from 'rxjs';
import { ConfigError } from '../errors';
import type { WebSocketCtor } from './webSocketLike';

/** What `import('ws')` resolves to (an ES module namespace, or a CommonJS module seen through it). @internal */
export interface WsModule {
  readonly WebSocket?: WebSocketCtor;
  readonly default?: WebSocketCtor | { readonly WebSocket?: WebSocketCtor };
}

/** True on Node (and runtimes that mimic it, such as Bun and Deno's Node mode). @internal */
function isNode(): boolean {
  const g = globalThis as { process?: { versions?: { node?: unknown } } };
  return typeof g.process?.versions?.node === 'string';
}

/** Where the default constructor comes from: the runtime and the `ws` loader (tests replace them). @internal */
export interface CtorSources {
  readonly isNode: () => boolean;
  readonly globalWebSocket: () => WebSocketCtor | undefined;
  readonly loadWs: () => Promise<WsModule>;
}

const RUNTIME: CtorSources = {
  isNode,
  globalWebSocket: () => (globalThis as { WebSocket?: WebSocketCtor }).WebSocket,
  loadWs: () => import('ws'),
};

function ctorOf(mod: WsModule): WebSocketCtor | undefined {
  if (typeof mod.WebSocket === 'function') return mod.WebSocket;
  const d = mod.default;
  if (typeof d === 'function') return d;
  return d?.WebSocket;
}

/**
 * Resolves the websocket constructor to use when none is injected, at connect time (never at import):
 * on Node the `ws` package through a dynamic `import('ws')` (faster than Node's built-in client, and Node 20
 * has no global `WebSocket`); elsewhere the global `WebSocket`. Errors with a {@link ConfigError} when
 * neither exists. The core bundle carries no top-level `ws` import, and the browser build (the `browser` export
 * condition) swaps this module for `defaultWebSocketCtor.browser.ts`, which never mentions `ws` (rollup.config.js).
 * `sources`: the runtime (tests replace it).
 * @internal
 */
export function defaultWebSocketCtor(sources: CtorSources = RUNTIME): Observable<WebSocketCtor> {
  return defer(() => {
    const global = sources.globalWebSocket();
    if (!sources.isNode() && typeof global === 'function') return of(global);
    return from(sources.loadWs().then((mod: WsModule) => ctorOf(mod), () => undefined)).pipe(
      map((ws) => ws ?? global),
      map((ctor) => {
        if (typeof ctor !== 'function') {
          throw new ConfigError('WebSocketCtor', 'is needed: there is no global WebSocket and the ws package could not be loaded');
        }
        return ctor;
      }),
    );
  });
}
