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
    // bbo is a topic of the V2 stream: a V1 gateway would hold a topic its venue does not have
    ['topics', { topics: ['trade', 'bbo'] }],
    ['topics', { url: 'ws://127.0.0.1:1/quote/ws/v2', market: { dialect: 'v1' }, topics: ['bbo'] }],
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

  it.each([
    ['the url', { url: 'ws://127.0.0.1:1/quote/ws/v2' }],
    ['market.dialect', { market: { dialect: 'v2' } }],
  ] as const)('takes the V2 stream (by %s), bbo among its topics', async (_by, v2) => {
    const gateway = publishMarket({ ...base, ...v2, topics: ['bbo', 'depth'] } as PublishMarketConfig);
    await gateway.stop();
  });
});
