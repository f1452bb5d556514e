/**
 * Venue presets: addresses, key header, `recvWindow` cap, rate limits and market-data site of a deployment.
 * @module
 */
export { hashkey } from './hashkeyVenues';
export type { VenuePreset } from './venuePreset';
