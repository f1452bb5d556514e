import { strToU8, zipSync } from 'fflate';

/**
 * A binary frame as the service sends it when a subscription asked for `binary: true`: a zip file with one
 * deflated entry (`data.json`) holding the message as JSON text (a string is taken as the text itself).
 * The test exchange zips scripted envelopes by itself for binary subscriptions; use this to script a binary
 * frame explicitly. Runs in browsers (fflate, no `Buffer`).
 *
 * @example
 * ```ts
 * import { depthEnvelope, zipFrame, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-z', { z: zipFrame(depthEnvelope()) });
 * ```
 */
export function zipFrame(message: unknown): Uint8Array {
  const text = typeof message === 'string' ? message : JSON.stringify(message);
  return zipSync({ 'data.json': strToU8(text) });
}
