import { ConfigError } from '../errors';

/** What a build without a default inflater (the browser build) needs for zip frames, and where to get it. @internal */
export const INFLATER_NEEDED =
  "is needed for binary (zip) frames in browsers: import { inflateRaw } from 'ex-streams/zip' and pass it as connection: { inflateRaw } (or to decodeFrame)";

/**
 * The error of a binary frame that arrives on a connection without an inflater (browser build, no
 * `connection.inflateRaw`): the stream ends with it, as with any `ConfigError` (not retried). @internal
 */
export const missingInflater = (): ConfigError => new ConfigError('inflateRaw', INFLATER_NEEDED);
