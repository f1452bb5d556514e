import { Redis } from 'ioredis';
import { asyncScheduler } from 'rxjs';
import { EntryWriter } from '../../lib/redis/internal/entryWriter';
import { openRedis, type RedisClient } from '../../lib/redis/internal/openRedis';
import { compareIds, lastKey, streamKey } from '../../lib/redis/marketKeys';
import { describeWithRedis, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';
import { sleep, until } from '../helpers/until';

describeWithRedis('the gateway writer with two writes in flight (real Redis behind a proxy)', () => {
  let redis: RedisServer;
  let direct: Redis;
  let proxy: TcpProxy;
  let client: RedisClient;
  let writer: EntryWriter;
  let errors: string[];
  let writes: number;
  let n = 0;
  const prefix = (): string => `w${n}:`;

  beforeAll(async () => {
    redis = await startRedisServer();
    direct = new Redis(redis.port, '127.0.0.1');
  });
  afterAll(async () => {
    direct?.disconnect();
    await redis?.stop();
  });
  beforeEach(async () => {
    n++;
    errors = [];
    writes = 0;
    // The answers take 150 ms to come back: a write stays in flight that long, and a reset in between loses them.
    proxy = await startTcpProxy(redis.port, { downstreamDelayMs: 150 });
    client = openRedis(`redis://127.0.0.1:${proxy.port}`, 'writer-test', 50);
    // A write (a batch of one shard) begins with its one HSET of the topics' newest ids: counted, a write each.
    const hset = client.hset.bind(client);
    client.hset = ((...args: Parameters<typeof hset>) => {
      writes++;
      return hset(...args);
    }) as typeof client.hset;
    client.on('error', () => undefined);
    writer = new EntryWriter({
      client,
      prefix: prefix(),
      shards: 1,
      maxLen: 100_000,
      maxQueued: 10_000,
      scheduler: asyncScheduler,
      onError: (_operation, e) => errors.push(e instanceof Error ? e.message : String(e)),
      onChange: () => undefined,
      push: true,
      answerTimeoutMs: 1_000,
      onRecovered: () => undefined,
    });
    client.on('ready', () => writer.kick());
    await until(() => client.status === 'ready', 'the first connect');
  });
  afterEach(async () => {
    writer.stop();
    client.disconnect();
    await proxy.close();
  });

  /** Queues frames `from`..`to` (one turn of the event loop: one batch), each at its own millisecond. */
  let at = Date.now();
  const queue = (from: number, to: number): void => {
    for (let i = from; i <= to; i++) writer.message(0, 'BTCUSDT', 'trade', `{"i":${i}}`, ++at);
  };
  /** The frames of the stream, in stream order. */
  const stream = async (): Promise<string[]> => {
    const entries = await direct.xrange(streamKey(prefix(), 0), '-', '+');
    return entries.map(([, fields]) => fields[fields.indexOf('f') + 1]!);
  };
  const frames = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, k) => `{"i":${from + k}}`);
  /** The `:last` hash holds the stream's newest entry id (a retry never moved it back). */
  const expectLastIsNewest = async (): Promise<void> => {
    const [newest] = await direct.xrevrange(streamKey(prefix(), 0), '+', '-', 'COUNT', 1);
    expect(await direct.hget(lastKey(prefix(), 0), 'trade|BTCUSDT')).toBe(newest![0]);
  };

  /** Two batches in flight (their answers on the way), a third waiting; then the connection is cut. */
  async function cutWithTwoInFlight(): Promise<void> {
    queue(1, 50);
    await sleep(20);
    queue(51, 100);
    await sleep(20);
    queue(101, 150); // waits: two writes are in flight
    await sleep(20);
    expect(writes).toBe(2);
    expect(writer.written).toBe(0);
    expect(writer.queued).toBe(150);
    proxy.reset();
  }

  it('counts entries written by writes whose answers were lost once, and writes nothing twice', async () => {
    await cutWithTwoInFlight();
    await until(() => writer.queued === 0, 'the queue written');
    expect(await stream()).toEqual(frames(1, 150));
    expect(writer.written).toBe(150);
    expect(writer.dropped).toBe(0);
    // the retry of the two lost writes went first, in their order, then the batch that waited
    expect(writes).toBeGreaterThanOrEqual(3);
    await expectLastIsNewest();
  });

  it('writes again what never reached Redis, in order', async () => {
    queue(1, 50);
    await sleep(20);
    queue(51, 100);
    await sleep(5);
    proxy.stall(); // what the client writes now is lost on the way
    queue(101, 150);
    await sleep(20);
    proxy.reset();
    proxy.resume();
    await until(() => writer.queued === 0, 'the queue written');
    expect(await stream()).toEqual(frames(1, 150));
    expect(writer.written).toBe(150);
    expect(writer.dropped).toBe(0);
    await expectLastIsNewest();
  });

  it('makes its connection again when Redis stops answering for good (a dead NAT entry): every entry written once, in order', async () => {
    queue(1, 50);
    await until(() => writer.queued === 0, 'the first batch written');
    const before = proxy.accepted;
    proxy.stallLive(); // the open connection answers nothing, ever; a new one is fine
    queue(51, 100);
    await sleep(20);
    queue(101, 150);
    await until(() => writer.queued === 0, 'the queue written through a new connection', 6_000);
    expect(proxy.accepted).toBeGreaterThan(before);
    expect(await stream()).toEqual(frames(1, 150));
    expect(writer.written).toBe(150);
    expect(writer.dropped).toBe(0);
    expect(errors.join(' ')).toMatch(/no answer from Redis in 1000 ms/);
    await expectLastIsNewest();
  });

  it('sets each topic\'s latest id in `:last` before its entry is in the stream: a consumer that reads both between a batch\'s commands never finds the hash behind the stream', async () => {
    // Every command Redis runs, in the order it runs them (MONITOR, on a connection of its own).
    const monitor = await direct.monitor();
    const ran: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => ran.push(args));
    try {
      for (let turn = 0; turn < 5; turn++) {
        for (let i = 0; i < 4; i++) {
          writer.message(0, 'BTCUSDT', 'trade', `{"t":${turn},"i":${i}}`, ++at);
          writer.message(0, 'BTCUSDT', 'depth', `{"d":${turn},"i":${i}}`, ++at);
        }
        await until(() => writer.queued === 0, 'the batch written');
      }
      await direct.ping();
      await until(() => ran.some((args) => args[0]?.toLowerCase() === 'ping'), 'the monitor caught up');
    } finally {
      monitor.disconnect();
    }
    const hashed = new Map<string, string>();
    let checked = 0;
    for (const [command, ...args] of ran) {
      if (command?.toLowerCase() === 'hset' && args[0] === lastKey(prefix(), 0)) {
        for (let i = 1; i + 1 < args.length; i += 2) hashed.set(args[i]!, args[i + 1]!);
      } else if (command?.toLowerCase() === 'xadd' && args[0] === streamKey(prefix(), 0)) {
        const id = args[4]!;
        const field = `${args[args.indexOf('c') + 1]}|${args[args.indexOf('s') + 1]}`;
        const inHash = hashed.get(field);
        expect({ id, field, hashBehind: inHash === undefined || compareIds(inHash, id) < 0 }).toEqual({ id, field, hashBehind: false });
        checked++;
      }
    }
    expect(checked).toBe(40);
  });

  it('counts an entry refused on its retry and absent from the stream as lost, and says so (never as written)', async () => {
    await cutWithTwoInFlight();
    // The first batch's 10th entry is not in the stream while later ones are: what a failed earlier write beside a
    // later one that succeeded leaves behind (played here by deleting it before the retry).
    const [entry] = (await direct.xrange(streamKey(prefix(), 0), '-', '+', 'COUNT', 10)).slice(9);
    await direct.xdel(streamKey(prefix(), 0), entry![0]);
    await until(() => writer.queued === 0, 'the queue written');
    expect(await stream()).toEqual(frames(1, 150).filter((f) => f !== '{"i":10}'));
    expect(writer.written).toBe(149);
    expect(writer.dropped).toBe(1);
    expect(errors.filter((e) => e.includes(`entry ${entry![0]} refused on a retry and not in the stream: lost`))).toHaveLength(1);
    // its sequence number is missing: a consumer signals the gap
    const ns = (await direct.xrange(streamKey(prefix(), 0), '-', '+')).map(([, fields]) => Number(fields[fields.indexOf('n') + 1]));
    expect(ns.indexOf(11) - ns.indexOf(9)).toBe(1);
  });
});
