import type { VenuePreset } from './venuePreset';

/** HashKey Exchange (HK) and HashKey MENA share one platform (MENA moved onto it on 2026-06-16). */
const PRO = {
  production: { restUrl: 'https://api-pro.hashkey.com', streamHost: 'wss://stream-pro.hashkey.com' },
  sandbox: { restUrl: 'https://api-pro.sim.hashkeydev.com', streamHost: 'wss://stream-pro.sim.hashkeydev.com' },
} as const;

const GLOBAL = {
  production: { restUrl: 'https://api-glb.hashkey.com', streamHost: 'wss://stream-glb.hashkey.com' },
  sandbox: { restUrl: 'https://api-glb.sim.hashkeydev.com', streamHost: 'wss://stream-glb.sim.hashkeydev.com' },
} as const;

const preset = (
  name: string,
  where: { readonly restUrl: string; readonly streamHost: string },
  rest: Omit<VenuePreset, 'name' | 'restUrl' | 'publicStreamUrl' | 'privateStreamUrl'>,
): VenuePreset =>
  Object.freeze({
    name,
    restUrl: where.restUrl,
    publicStreamUrl: `${where.streamHost}/quote/ws/v1`,
    privateStreamUrl: `${where.streamHost}/api/v1/ws`,
    ...rest,
  });

/** Per-key limits of HashKey Exchange's "Get Started" page: 2 queries and 10 orders a second. */
const HK_LIMITS = Object.freeze({ queriesPerSecond: 2, ordersPerSecond: 10 });
/** Per-key limits of HashKey MENA's "Get Started" page: 5 queries and 20 orders a second. */
const MENA_LIMITS = Object.freeze({ queriesPerSecond: 5, ordersPerSecond: 20 });

/**
 * HashKey's deployments as {@link VenuePreset}s, production and sandbox each (docs/hashkey.md says where each
 * value comes from):
 * - `hashkey.hk`: HashKey Exchange (Hong Kong), `api-pro.hashkey.com`, key header `X-HK-APIKEY`, 2 queries and 10
 *   orders per second per key;
 * - `hashkey.global`: HashKey Global, `api-glb.hashkey.com`, key header `X-HK-APIKEY`; its pages give no per-key
 *   figures, so the HK ones stand in (slower, never over);
 * - `hashkey.mena`: HashKey MENA (on the HK platform since 2026-06-16), `api-pro.hashkey.com`, key header
 *   `X-APIKEY`, 5 queries and 20 orders per second, `recvWindow` at most 8 000 ms (enforced since 2026-04-30),
 *   market data asked with `site=MENA`.
 *
 * @example
 * ```ts
 * import { hashkey, marketStreams, restClient, userStream } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const venue = hashkey.global.sandbox;
 * const rest = restClient({ venue, apiKey, secretKey }); // https://api-glb.sim.hashkeydev.com, X-HK-APIKEY
 * const market = marketStreams({ venue });               // wss://stream-glb.sim.hashkeydev.com/quote/ws/v1
 * const user = userStream({ rest, venue });              // wss://stream-glb.sim.hashkeydev.com/api/v1/ws/{listenKey}
 * ```
 */
export const hashkey = Object.freeze({
  hk: Object.freeze({
    production: preset('HashKey Exchange (HK) production', PRO.production, { apiKeyHeader: 'X-HK-APIKEY', rateLimit: HK_LIMITS }),
    sandbox: preset('HashKey Exchange (HK) sandbox', PRO.sandbox, { apiKeyHeader: 'X-HK-APIKEY', rateLimit: HK_LIMITS }),
  }),
  global: Object.freeze({
    production: preset('HashKey Global production', GLOBAL.production, { apiKeyHeader: 'X-HK-APIKEY', rateLimit: HK_LIMITS }),
    sandbox: preset('HashKey Global sandbox', GLOBAL.sandbox, { apiKeyHeader: 'X-HK-APIKEY', rateLimit: HK_LIMITS }),
  }),
  mena: Object.freeze({
    production: preset('HashKey MENA production', PRO.production, { apiKeyHeader: 'X-APIKEY', maxRecvWindowMs: 8000, rateLimit: MENA_LIMITS, site: 'MENA' }),
    sandbox: preset('HashKey MENA sandbox', PRO.sandbox, { apiKeyHeader: 'X-APIKEY', maxRecvWindowMs: 8000, rateLimit: MENA_LIMITS, site: 'MENA' }),
  }),
});
