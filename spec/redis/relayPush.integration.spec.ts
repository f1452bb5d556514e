import { Redis } from 'ioredis';
import type { Subscription } from 'rxjs';
import { entryFields, type MarketEntry, pushPayload } from '../../lib/redis/marketEntry';
import { streamKey } from '../../lib/redis/marketKeys';
import { type RedisMarketStreams, redisMarketStreams, type RedisMarketStreamsConfig } from '../../lib/redis/redisMarketStreams';
import type { RelayGap } from '../../lib/redis/relayGap';
import { describeWithRedis, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { MARKET } from './relayFixtures';
import { startTcpProxy } from '../helpers/tcpProxy';
import { sleep, until } from '../helpers/until';

// The consumer's push path (`read: 'push'`) against a real Redis, the test playing the gateway: it writes each entry to
// the stream and publishes it (or not, or twice, or garbage), so each way pushes go wrong is made exactly.

const SYMBOL = 'BTCUSDT';
const T0 = 1_700_000_000_000;
/** Trade ids past 2^53: exact or wrong. */
const tradeId = (n: number): string => (9_007_199_254_740_993n + BigInt(n)).toString();
const tradeFrame = (n: number): string =>
  `{"symbol":"${SYMBOL}","symbolName":"${SYMBOL}","topic":"trade","params":{"binary":"false"},"data":[{"v":"${tradeId(n)}","t":"${T0 + n}","p":"76321.5","q":"0.0012","m":true}],"f":false,"sendTime":"${T0 + n}","id":"1"}`;

describeWithRedis('the consumer by push (real Redis, the test as the gateway)', () => {
  let redis: RedisServer;
  let writer: Redis;
  let prefix: string;
  let n = 0;
  let market: RedisMarketStreams | undefined;
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    writer = new Redis(redis.port, '127.0.0.1');
  });
  afterAll(async () => {
    writer?.disconnect();
    await redis?.stop();
  });
  beforeEach(() => {
    prefix = `p${++n}:`;
  });
  afterEach(() => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    market = undefined;
  });

  const key = (): string => streamKey(prefix, 0);
  /** The data entry of trade `i` (sequence `i`, id `T0+i-0`). */
  const entry = (i: number): { id: string; fields: string[] } => {
    const e: MarketEntry = { kind: 'message', seq: i, receivedAt: T0 + i, symbol: SYMBOL, topic: 'trade', frame: tradeFrame(i), prev: i > 1 ? `${T0 + i - 1}-0` : undefined };
    return { id: `${T0 + i}-0`, fields: entryFields(e) };
  };
  const xadd = async (i: number): Promise<void> => {
    const { id, fields } = entry(i);
    await writer.xadd(key(), id, ...fields);
  };
  const publish = async (i: number): Promise<void> => {
    const { id, fields } = entry(i);
    await writer.publish(key(), pushPayload(id, fields));
  };
  /** Entries `from..to` written, each published unless in `lost`. */
  const write = async (from: number, to: number, lost: readonly number[] = []): Promise<void> => {
    for (let i = from; i <= to; i++) {
      await xadd(i);
      if (!lost.includes(i)) await publish(i);
    }
  };

  /** A consumer of `SYMBOL`'s trades: what it delivers, its relay gaps and errors; resolves once it listens for pushes (or is meant not to). */
  const consume = async (options: Partial<RedisMarketStreamsConfig> = {}, waitForPushes = true) => {
    const trades: string[] = [];
    const gaps: RelayGap[] = [];
    const errors: string[] = [];
    market = redisMarketStreams({ redis: redis.url(), prefix, shards: 1, checkMs: 100, market: MARKET, ...options });
    subscriptions.push(
      // Frames, not `trades()` (which drops a trade id seen before): a frame delivered twice shows.
      market.tradeMessages(SYMBOL).subscribe((m) => trades.push(...m.data.map((t) => t.v))),
      market.relayGaps$.subscribe((g) => gaps.push(g)),
      market.errors$.subscribe((e) => errors.push(e.message)),
    );
    if (waitForPushes) await until(async () => ((await writer.pubsub('NUMSUB', key())) as [string, number])[1] === 1, 'the consumer to subscribe');
    return { trades, gaps, errors };
  };
  const ids = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, k) => tradeId(from + k));

  it('delivers what is pushed, in order, each trade once (a push repeated is not delivered twice)', async () => {
    const c = await consume();
    await write(1, 3);
    await publish(3); // a retry's push
    await publish(2);
    await write(4, 5);
    await until(() => c.trades.length >= 5, 'five trades');
    await sleep(150); // (a check period: nothing more comes)
    expect(c.trades).toEqual(ids(1, 5));
    expect(c.gaps).toEqual([]);
    expect(c.errors).toEqual([]);
  });

  it('reads from the stream what pushes skipped, before the push that shows it: in order, no gap', async () => {
    const c = await consume();
    await write(1, 8, [3, 4, 6]);
    await until(() => c.trades.length >= 8, 'eight trades');
    expect(c.trades).toEqual(ids(1, 8));
    expect(c.gaps).toEqual([]);
    expect(c.errors).toEqual([]);
  });

  it('delivers an entry whose push was lost and that no push follows, at the next check', async () => {
    const c = await consume();
    await write(1, 3, [3]);
    await until(() => c.trades.length >= 3, 'the third trade, by a check');
    expect(c.trades).toEqual(ids(1, 3));
    expect(c.gaps).toEqual([]);
  });

  it('signals a hole of the stream itself as a sequence gap (never delivers past it silently)', async () => {
    const c = await consume();
    await write(1, 2);
    await until(() => c.trades.length >= 2, 'two trades');
    // Entry 3 never reaches the stream (its XADD failed): 4 is written and pushed.
    await write(4, 4);
    await until(() => c.gaps.length >= 1, 'the gap');
    expect(c.gaps[0]).toMatchObject({ reason: 'sequence', shard: 0, symbols: [SYMBOL], entryId: `${T0 + 4}-0`, missing: 1 });
    expect(c.trades.slice(0, 2)).toEqual(ids(1, 2));
    expect(c.trades).not.toContain(tradeId(3));
  });

  it('takes garbage on its channel for what it is: no entry, nothing thrown, the stream read instead', async () => {
    const c = await consume();
    await write(1, 1);
    for (const junk of ['', 'nonsense', '|||', `${T0 + 2}-0|99|x`, `${T0 + 2}-0|1,a|xy`, `x-1|1|a`, `${T0 + 2}-0|3|ab`]) await writer.publish(key(), junk);
    await xadd(2);
    await writer.publish(key(), `${T0 + 2}-0|2,2|nn`); // its id, but fields that are not an entry: the stream's are read
    await write(3, 3);
    await until(() => c.trades.length >= 3, 'three trades');
    expect(c.trades).toEqual(ids(1, 3));
    expect(c.gaps).toEqual([]);
    expect(c.errors).toEqual([]);
  });

  it('reads what was published while its push connection was down from the stream once it is back: each once, in order, no gap', async () => {
    const c = await consume();
    await write(1, 2);
    await until(() => c.trades.length >= 2, 'two trades');
    await writer.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await write(3, 6);
    await until(() => c.trades.length >= 6, 'six trades');
    await write(7, 9);
    await until(() => c.trades.length >= 9, 'nine trades');
    expect(c.trades).toEqual(ids(1, 9));
    expect(c.gaps).toEqual([]);
  });

  it('gets over a link to Redis that went silent for good (a dead NAT entry): new connections, each entry once, in order, no gap', async () => {
    const proxy = await startTcpProxy(redis.port);
    try {
      // The relay socket's heartbeat (pings answered once Redis answers a PING) finds the link dead: here after 1 s.
      const c = await consume({ redis: `redis://127.0.0.1:${proxy.port}`, market: { ...MARKET, connection: { ...MARKET.connection, pingIntervalMs: 300, heartbeatTimeoutMs: 1_000 } } });
      await write(1, 2);
      await until(() => c.trades.length >= 2, 'two trades');
      const before = proxy.accepted;
      proxy.stallLive();
      await write(3, 6);
      await until(() => c.trades.length >= 6, 'six trades, through new connections');
      await write(7, 8);
      await until(() => c.trades.length >= 8, 'eight trades');
      expect(c.trades).toEqual(ids(1, 8));
      expect(c.gaps).toEqual([]);
      expect(proxy.accepted).toBeGreaterThan(before);
    } finally {
      subscriptions.splice(0).forEach((s) => s.unsubscribe());
      await proxy.close();
    }
  }, 20_000);

  it('makes its push connection again when it alone went silent (a dead NAT entry): pushes come again, no fallback, each entry once', async () => {
    const proxy = await startTcpProxy(redis.port);
    try {
      const c = await consume({ redis: `redis://127.0.0.1:${proxy.port}` });
      expect(proxy.accepted).toBe(2); // the command connection, then the push connection
      await write(1, 2);
      await until(() => c.trades.length >= 2, 'two trades');
      /** Ids of the clients subscribed to a channel. */
      const pushClients = async (): Promise<string[]> =>
        String(await writer.call('CLIENT', 'LIST', 'TYPE', 'pubsub'))
          .split('\n')
          .filter((line) => / sub=[1-9]/.test(line))
          .map((line) => /^id=(\d+)/.exec(line)?.[1] ?? '');
      const before = await pushClients();
      expect(before).toHaveLength(1);
      proxy.stallLive(2);
      for (let i = 3; i <= 12; i++) {
        await write(i, i); // its push lost on the way: the checks read it
        await sleep(40);
      }
      await until(() => c.errors.some((e) => /push connection again/.test(e)), 'the push connection made again');
      await until(() => proxy.accepted >= 3, 'a new push connection');
      await until(async () => (await pushClients()).some((id) => !before.includes(id)), 'a new subscription');
      for (let i = 13; i <= 22; i++) {
        await write(i, i);
        await sleep(40);
      }
      await until(() => c.trades.length >= 22, 'twenty-two trades');
      await sleep(300); // three checks more: pushes come, no fallback
      expect(c.trades).toEqual(ids(1, 22));
      expect(c.gaps).toEqual([]);
      expect(c.errors.filter((e) => /XREAD/.test(e))).toEqual([]);
    } finally {
      subscriptions.splice(0).forEach((s) => s.unsubscribe());
      await proxy.close();
    }
  });

  it('falls back to XREAD, saying so once, when entries come but no push does (a gateway with push off)', async () => {
    const c = await consume();
    for (let i = 1; i <= 12; i++) {
      await xadd(i);
      await sleep(40);
    }
    await until(() => c.trades.length >= 12, 'twelve trades');
    // First its push connection made again (it may have gone silent alone), then, still no push, XREAD.
    await until(() => c.errors.some((e) => /XREAD/.test(e)), 'the fallback');
    await write(13, 14, [13, 14]);
    await until(() => c.trades.length >= 14, 'fourteen trades');
    expect(c.trades).toEqual(ids(1, 14));
    expect(c.gaps).toEqual([]);
    expect(c.errors.filter((e) => /XREAD/.test(e))).toHaveLength(1);
    expect(c.errors.findIndex((e) => /push connection again/.test(e))).toBeLessThan(c.errors.findIndex((e) => /XREAD/.test(e)));
    expect(c.errors.join(' ')).toMatch(/no push comes/);
  });

  it('falls back to XREAD at once when its ACL refuses SUBSCRIBE, and never shows the password', async () => {
    redis.cli(['ACL', 'SETUSER', 'nochannels', 'on', '>nochannels-pw-123', '~*', 'resetchannels', '+@all']);
    try {
      const c = await consume({ redis: redis.url({ user: 'nochannels', password: 'nochannels-pw-123' }) }, false);
      await until(() => c.errors.some((e) => /XREAD/.test(e)), 'the fallback');
      await write(1, 4);
      await until(() => c.trades.length >= 4, 'four trades');
      expect(c.trades).toEqual(ids(1, 4));
      expect(c.errors.join(' ')).not.toMatch(/nochannels-pw|pw-123/);
    } finally {
      for (const s of subscriptions.splice(0)) s.unsubscribe();
      redis.cli(['ACL', 'DELUSER', 'nochannels']);
    }
  });

  it("with read: 'xread', subscribes to nothing", async () => {
    const c = await consume({ read: 'xread' }, false);
    await until(async () => /name=ex-streams-relay-read /.test((await writer.client('LIST')) as string), 'the consumer to read');
    await write(1, 3);
    await until(() => c.trades.length >= 3, 'three trades');
    expect(((await writer.pubsub('NUMSUB', key())) as [string, number])[1]).toBe(0);
    expect(c.trades).toEqual(ids(1, 3));
  });
});
