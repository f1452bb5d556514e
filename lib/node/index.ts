/**
 * ex-streams/node: the Node-only parts of ex-streams that the browser-safe core entry must not import: a
 * native zlib inflater for zip frames and the `ws` client, to inject explicitly.
 *
 * @packageDocumentation
 */
export { nodeInflateRaw } from './nodeInflateRaw';
export { nodeWebSocket } from './nodeWebSocket';
