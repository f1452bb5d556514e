/**
 * The shape of a venue preset: plain data that `restClient`, `marketStreams` and `userStream` read (addresses,
 * the API-key header, the `recvWindow` cap, the per-key rate limits, the market-data `site`).
 * @module
 */

/**
 * One deployment of a venue (production or sandbox): plain data, nothing runs. `restClient({ venue })` takes
 * `restUrl`, `apiKeyHeader`, `maxRecvWindowMs` (a `recvWindow` above it is a `ConfigError` before anything is
 * sent), `rateLimit` (the client-side gate unless the config gives its own) and `site` (sent on the market-data
 * calls); `marketStreams({ venue })` takes `publicStreamUrl` and `userStream({ venue })` builds its address
 * from `privateStreamUrl` + `/{listenKey}` when no `url` is given.
 *
 * @example
 * ```ts
 * import { restClient, type VenuePreset } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const mine: VenuePreset = {
 *   name: 'my-operator sandbox',
 *   restUrl: 'https://api.sandbox.example.com',
 *   publicStreamUrl: 'wss://stream.sandbox.example.com/quote/ws/v1',
 *   privateStreamUrl: 'wss://stream.sandbox.example.com/api/v1/ws',
 *   apiKeyHeader: 'X-OPR-APIKEY',
 *   maxRecvWindowMs: 8000,
 *   rateLimit: { queriesPerSecond: 2, ordersPerSecond: 10 },
 * };
 * const rest = restClient({ venue: mine, apiKey, secretKey });
 * ```
 */
export interface VenuePreset {
  /** A name for messages and logs, e.g. `'HashKey Global production'`. */
  readonly name: string;
  /** The HTTP API base address. */
  readonly restUrl: string;
  /** The public stream's address (ends in `/quote/ws/v1`). */
  readonly publicStreamUrl: string;
  /** The private stream's address without the listen key (the key is appended as a path segment). */
  readonly privateStreamUrl: string;
  /** The API-key header of signed and keyed calls. */
  readonly apiKeyHeader: string;
  /** Largest `recvWindow` the venue accepts, in ms; `undefined` when it documents none. */
  readonly maxRecvWindowMs?: number | undefined;
  /**
   * Per-key limits, the client's `rateLimit` shape: calls other than placements (`queriesPerSecond`) and order
   * placements (`ordersPerSecond`) per second; `undefined` when not documented.
   */
  readonly rateLimit?:
    | {
        readonly requestsPerSecond?: number | undefined;
        readonly queriesPerSecond?: number | undefined;
        readonly ordersPerSecond?: number | undefined;
      }
    | undefined;
  /** The `site` parameter of market-data calls (`'MENA'` on HashKey MENA); `undefined` where it does not apply. */
  readonly site?: string | undefined;
}
