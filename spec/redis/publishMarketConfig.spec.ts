import { ConfigError } from '../../lib/errors';
import { publishMarket, type PublishMarketConfig } from '../../lib/redis/publishMarket';

// A gateway's own mistakes are refused at once, before any connection is opened (the user's, not the network's).
const base: PublishMarketConfig = { redis: 'redis://127.0.0.1:1', url: 'ws://127.0.0.1:1/quote/ws/v1', symbols: ['BTCUSDT'], topics: ['trade'] };

describe('publishMarket options', () => {
  it.each([
    ['shards', { shards: 0 }],
    ['maxLen', { maxLen: 1.5 }],
    ['maxQueued', { maxQueued: -1 }],
    ['answerTimeoutMs', { answerTimeoutMs: 0 }],
    ['answerTimeoutMs', { answerTimeoutMs: Number.NaN }],
    ['topics', { topics: [] }],
    ['topics', { topics: ['kline'] as unknown as PublishMarketConfig['topics'] }],
    ['redis', { redis: 'http://127.0.0.1:6379' }],
    // the relay carries V1 frames: a V2 stream would be written nowhere, so it is refused rather than silently empty
    ['url', { url: 'ws://127.0.0.1:1/quote/ws/v2' }],
    ['url', { market: { dialect: 'v2' } }],
  ] as const)('refuses a bad %s with a ConfigError naming it', (option, bad) => {
    let thrown: unknown;
    try {
      publishMarket({ ...base, ...bad } as PublishMarketConfig);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).option).toBe(option);
  });
});
