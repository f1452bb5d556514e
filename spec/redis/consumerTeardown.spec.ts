import { type AsyncHook, createHook } from 'node:async_hooks';
import { filter, firstValueFrom, type Subscription } from 'rxjs';
import { redisMarketStreams, type RedisMarketStreams } from '../../lib/redis/redisMarketStreams';
import { describeWithRedis, freePort, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { until } from '../helpers/until';
import { MARKET } from './relayFixtures';

/**
 * What keeps a process alive that a consumer may leave behind: its timers (ioredis' reconnect timer, a read loop's
 * retry wait, `marketStreams`' own) and its TCP sockets. Tracked from `reset()` on with async_hooks (as
 * `jest --detectOpenHandles` does), each with the stack that made it; jest's own and unreferenced ones left out.
 */
interface Handle {
  readonly type: string;
  readonly resource: { hasRef?: () => boolean };
  readonly stack: string;
}
const handles = new Map<number, Handle>();
let hook: AsyncHook | undefined;
const openHandles = (): string[] =>
  [...handles.values()]
    .filter((h) => h.resource.hasRef?.() !== false && !/[\\/]@?jest[^\\/]*[\\/]/.test(h.stack))
    .map((h) => `${h.type}${h.stack.split('\n').slice(2, 8).join('\n')}`);

/** Resolves once nothing the test made since the last `handles.clear()` is left (polled on an unreferenced timer); else fails listing them. */
const nothingLeft = (timeoutMs = 3_000): Promise<void> =>
  until(() => openHandles().length === 0, () => `no handle left; open:\n${openHandles().join('\n\n')}`, { timeoutMs, everyMs: 50, unref: true });

const relayConnections = (redis: RedisServer): string[] =>
  redis
    .cli(['CLIENT', 'LIST'])
    .split('\n')
    .filter((line) => line.includes('name=ex-streams-relay'));

/** Resolves once `redis` holds no connection of a relay consumer (polled every 50 ms); else fails listing them. */
const noRelayConnection = (redis: RedisServer, timeoutMs = 3_000): Promise<void> =>
  until(() => relayConnections(redis).length === 0, () => `no relay connection; left:\n${relayConnections(redis).join('\n')}`, { timeoutMs, everyMs: 50, unref: true });

const reconnecting = (relay: RedisMarketStreams): Promise<unknown> => firstValueFrom(relay.status$.pipe(filter((s) => s.connection.type === 'reconnecting')));

describeWithRedis('redisMarketStreams teardown: an unsubscribed consumer leaves no connection and no timer', () => {
  let redis: RedisServer;
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    hook = createHook({
      init(id, type, _trigger, resource) {
        if (type === 'Timeout' || type === 'TCPWRAP') handles.set(id, { type, resource: resource as Handle['resource'], stack: new Error().stack ?? '' });
      },
      destroy(id) {
        handles.delete(id);
      },
    }).enable();
  });
  afterAll(async () => {
    hook?.disable();
    await redis?.stop();
  });
  beforeEach(() => handles.clear());
  afterEach(() => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
  });

  it('subscribed while Redis is down (nothing listens on its port), then unsubscribed', async () => {
    const relay = redisMarketStreams({ redis: `redis://127.0.0.1:${await freePort()}`, market: MARKET });
    const s = relay.depth('BTCUSDT').subscribe({ error: () => undefined });
    await reconnecting(relay);
    await reconnecting(relay); // a second attempt: its reconnect timers are running
    s.unsubscribe();
    await nothingLeft();
  });

  it('the same with a cluster target whose nodes are all down', async () => {
    const relay = redisMarketStreams({ redis: { cluster: [`redis://127.0.0.1:${await freePort()}`, `redis://127.0.0.1:${await freePort()}`] }, market: MARKET });
    const s = relay.depth('BTCUSDT').subscribe({ error: () => undefined });
    await reconnecting(relay);
    await reconnecting(relay);
    s.unsubscribe();
    await nothingLeft();
  });

  it('subscribed to a Redis that answers but refuses its PING: the connection made for it is closed, not kept reconnecting', async () => {
    // A user allowed everything but PING: the command connection gets ready, then the socket's first PING fails
    // (as when Redis goes down between the two). The connection was once left open for good.
    redis.cli(['ACL', 'SETUSER', 'noping', 'on', '>noping-pw', '~*', '&*', '+@all', '-ping']);
    try {
      const relay = redisMarketStreams({ redis: redis.url({ user: 'noping', password: 'noping-pw' }), market: MARKET });
      const s = relay.depth('BTCUSDT').subscribe({ error: () => undefined });
      await reconnecting(relay);
      await reconnecting(relay);
      s.unsubscribe();
      await noRelayConnection(redis);
      await nothingLeft();
    } finally {
      redis.cli(['ACL', 'DELUSER', 'noping']);
    }
  });

  it('closed while its Redis connection is being made: not opened when Redis answers, nothing left', async () => {
    const relay = redisMarketStreams({ redis: redis.url(), market: MARKET });
    const opened: unknown[] = [];
    subscriptions.push(relay.status$.pipe(filter((s) => s.connection.type === 'open')).subscribe((s) => opened.push(s)));
    for (let i = 0; i < 5; i++) relay.depth('BTCUSDT').subscribe({ error: () => undefined }).unsubscribe();
    await noRelayConnection(redis);
    expect(opened).toEqual([]);
    subscriptions.splice(0).forEach((s) => s.unsubscribe());
    await nothingLeft();
  });

  it('reading when Redis goes down, unsubscribed while its read loops wait to retry: the waits end with them', async () => {
    const relay = redisMarketStreams({ redis: redis.url(), shards: 2, blockMs: 100, market: MARKET });
    const errors: Error[] = [];
    subscriptions.push(relay.errors$.subscribe((e) => errors.push(e)));
    const s = relay.depth('BTCUSDT').subscribe({ error: () => undefined });
    s.add(relay.depth('ETHUSDT').subscribe({ error: () => undefined }));
    await firstValueFrom(relay.status$.pipe(filter((x) => x.connection.type === 'open')));
    await redis.kill('SIGKILL');
    // Failed reads back off 50, 100, 200, 400, 800 ms: past 1.5 s of them a loop waits most of a second.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(errors.length).toBeGreaterThan(0);
    s.unsubscribe();
    subscriptions.splice(0).forEach((x) => x.unsubscribe());
    await nothingLeft(400);
    await redis.restart();
  });

  it('Redis killed while consumers connect, each unsubscribed while it is down: none left once Redis is back, nor once it is gone', async () => {
    // Kills at several points of the connection (before it, during it, during the first PING, once open): one that
    // failed after its connection got ready used to leave that connection reconnecting for ever.
    for (let i = 0; i < 24; i++) {
      const relay = redisMarketStreams({ redis: redis.url(), market: MARKET });
      const s = relay.depth('BTCUSDT').subscribe({ error: () => undefined });
      await new Promise((resolve) => setTimeout(resolve, i % 8));
      const killed = redis.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, (i * 3) % 11));
      s.unsubscribe();
      await killed;
      await new Promise((resolve) => setTimeout(resolve, 50)); // down a while: whatever was left reconnects meanwhile
      await redis.restart();
    }
    await noRelayConnection(redis);
    await redis.kill('SIGKILL');
    await nothingLeft();
    await redis.restart();
  });
});
