/**
 * Request signing: form encoding, totalParams, HMAC SHA256 (Web Crypto; `node:crypto` for a `secretKey` on Node) and a signer.
 * @module
 */
export { formEncode } from './formEncode';
export type { Params, ParamValue } from './formEncode';
export { totalParams } from './totalParams';
export { hmacSha256Hex, hmacSha256Signer } from './hmacSha256Hex';
export { signer } from './signer';
export type { Signer, SignerConfig, SignRequest, SignedParams } from './signer';
export type { SignFunction } from './signConfig';
