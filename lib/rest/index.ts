/**
 * The signed REST client and the listen-key calls.
 * @module
 */
export { restClient } from './restClient';
export type { RestClient, RestClientConfig, RestRequest, RestRateLimit, SecurityType, HttpMethod } from './types';
export type { RestCalls, NewOrderRequest, OrderRef, OrderType, TimeInForce, DecimalText, BatchPlacementResult, CancelByIdsResult } from './callTypes';
