import { WebSocket } from 'ws';
import type { WebSocketCtor } from '../socket/webSocketLike';

/**
 * The `WebSocket` class of the `ws` package, typed as a {@link WebSocketCtor}: the client ex-streams uses on
 * Node when none is injected (loaded there by a dynamic `import('ws')` at connect time). Importing it from
 * `ex-streams/node` injects it explicitly and statically, e.g. for a bundled Node application where the
 * dynamic import would not be resolved. On Node it is ~2.4× faster per small frame than the built-in client.
 *
 * @example
 * ```ts
 * import { connection } from 'ex-streams/connection';
 * import { nodeWebSocket } from 'ex-streams/node';
 * const conn = connection({ url: 'wss://stream.example.com/quote/ws/v1', WebSocketCtor: nodeWebSocket });
 * conn.messages$.subscribe((m) => console.log(m)); // { pong: 1700000000123 }, …
 * ```
 */
export const nodeWebSocket: WebSocketCtor = WebSocket;
