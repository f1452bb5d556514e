/**
 * `ex-streams/signing`: request signing, for who signs calls themselves (a custom transport, a proxy, a test).
 * Form encoding, the `totalParams` the signature covers, HMAC SHA256 (Web Crypto; `node:crypto` for a `secretKey`
 * on Node) and the signer `restClient` uses. Runs in browsers and in Node.
 *
 * @packageDocumentation
 */
export { formEncode } from './auth/formEncode';
export type { Params, ParamValue } from './auth/formEncode';
export { totalParams } from './auth/totalParams';
export { hmacSha256Hex, hmacSha256Signer } from './auth/hmacSha256Hex';
export { signer } from './auth/signer';
export type { Signer, SignerConfig, SignRequest, SignedParams } from './auth/signer';
export type { SignFunction } from './auth/signConfig';
