/**
 * The signed REST client and the listen-key calls.
 * @module
 */
export { restClient } from './restClient';
export type { RestClient, RestClientConfig, RestRequest, SecurityType, HttpMethod } from './types';
