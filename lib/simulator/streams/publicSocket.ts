import type { WebSocket } from 'ws';
import type { Peer } from './peers';

/**
 * What the V1 and V2 public streams share on a connection: its frames as text and JSON, its subscriptions, and
 * JSON answers.
 *
 * @internal
 * @module
 */

/** A frame's text (UTF-8). @internal */
export const textOf = (data: WebSocket.RawData): string =>
  Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');

/** The JSON value of `text`, `undefined` when it is not JSON. @internal */
export const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** A connection's subscriptions by `symbol|topic`, each the function that stops its pushes. @internal */
export type Subscriptions = Map<string, () => void>;

/** Stops every subscription of a connection. @internal */
export function stopAll(subs: Subscriptions): void {
  for (const stop of subs.values()) stop();
  subs.clear();
}

/** Sends `value` as JSON text. @internal */
export function sendJson(peer: Peer, value: object): void {
  peer.send(JSON.stringify(value));
}
