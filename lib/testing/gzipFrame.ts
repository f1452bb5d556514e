import { gzipSync, strToU8 } from 'fflate';

/**
 * A binary frame in gzip form (one member holding the message as JSON text; a string is taken as the text itself):
 * what a probe of the live service saw where the spec says zip. The library reads both containers, by their magic
 * bytes. Runs in browsers (fflate, no `Buffer`).
 *
 * @example
 * ```ts
 * import { depthEnvelope, gzipFrame, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-g', { g: gzipFrame(depthEnvelope()) });
 * ```
 */
export function gzipFrame(message: unknown): Uint8Array {
  const text = typeof message === 'string' ? message : JSON.stringify(message);
  return gzipSync(strToU8(text));
}
