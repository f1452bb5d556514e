import { defer, type Observable, of, throwError } from 'rxjs';
import { ConfigError } from '../errors';
import type { CtorSources } from './defaultWebSocketCtor';
import type { WebSocketCtor } from './webSocketLike';

const RUNTIME: Pick<CtorSources, 'globalWebSocket'> = {
  globalWebSocket: () => (globalThis as { WebSocket?: WebSocketCtor }).WebSocket,
};

/**
 * The browser build's default websocket constructor: the global `WebSocket`, read at connect time (never at
 * import), or a {@link ConfigError} on `WebSocketCtor` when there is none. It never mentions `ws`, so a browser
 * bundler neither bundles nor warns about it. Replaces `defaultWebSocketCtor.ts` in the browser build (the
 * `browser` export condition; rollup.config.js). `sources`: the runtime (tests replace it).
 * @internal
 */
export function defaultWebSocketCtor(sources: Pick<CtorSources, 'globalWebSocket'> = RUNTIME): Observable<WebSocketCtor> {
  return defer(() => {
    const global = sources.globalWebSocket();
    return typeof global === 'function'
      ? of(global)
      : throwError(() => new ConfigError('WebSocketCtor', 'is needed: there is no global WebSocket in this runtime'));
  });
}
