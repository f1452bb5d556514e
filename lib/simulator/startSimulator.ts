import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { Account, DEFAULT_BALANCES } from './account';
import { realClock } from './clock';
import type { SimContext } from './context';
import { createControl } from './control';
import { controlHandler } from './controlRoutes';
import { Faults } from './faults';
import { apiHandler, type HttpAnswer } from './httpApi';
import { rejections } from './httpErrors';
import { ListenKeys } from './listenKeys';
import { idSource, SymbolMarket } from './market';
import { Matching } from './matching';
import { Peers } from './peers';
import { PrivateStreams } from './privateStream';
import { servePublic } from './publicStream';
import { mixSeed, mulberry32, randomAlnum } from './random';
import { Recorder } from './recorder';
import { symbolInfo } from './symbols';
import { Timers } from './timers';
import { TwoFactor } from './twoFactor';
import type { Simulator } from './simulator';
import type { SimulatorOptions } from './simulatorOptions';

const MAX_BODY_BYTES = 1 << 20;
const PUBLIC_PATH = '/quote/ws/v1';
const PRIVATE_PREFIX = '/api/v1/ws/';
const ACCOUNT_ID = '1500000000000000001';

const readBody = (req: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });

const reply = (res: ServerResponse, answer: HttpAnswer): void => {
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/**
 * Starts a local exchange simulator: the HTTP API (listen keys, signed orders, account, 2FA endpoints), the
 * public stream and the private stream on one port of 127.0.0.1, driven by a seeded market generator and
 * an injectable clock, with a control surface for faults. `close()` releases every socket and timer.
 *
 * Defaults: port 0 (ephemeral), symbols BTCUSDT and ETHUSDT, seed 1, real clock, spec push periods
 * (kline 300 ms, realtimes 500, trade 300, depth 300), 200 depth levels, 100 000 USDT / 10 BTC / 100 ETH.
 * See docs/simulator.md for every option, endpoint, error code and control.
 *
 * @example
 * ```ts
 * import { startSimulator } from 'ex-streams/simulator';
 * const sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 1 });
 * console.log(sim.baseUrl, sim.publicStreamUrl, sim.privateStreamUrl, sim.apiKey);
 * sim.drop({ stream: 'public' }); // abrupt disconnect of every public socket
 * await sim.close();
 * ```
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const {
    port = 0,
    host = '127.0.0.1',
    symbols = ['BTCUSDT', 'ETHUSDT'],
    seed = 1,
    apiKeyHeader = 'X-EX-APIKEY',
    clock = realClock(),
    periodsMs = {},
    marketStepMs = 300,
    depthLevels = 200,
    balances = DEFAULT_BALANCES,
    twoFactor = false,
    twoFactorTokenTtlMs = 30_000,
    listenKeyValidityMs = 3_600_000,
    privatePingIntervalMs = 30_000,
    privateIdleTimeoutMs = 3_600_000,
    batchPrivateEvents = false,
    recordTraffic = false,
  } = options;
  const credentials = mulberry32(mixSeed(seed, 'credentials'));
  const apiKey = options.apiKey ?? `sim${randomAlnum(credentials, 61)}`;
  const secretKey = options.secretKey ?? randomAlnum(credentials, 64);
  const ids = mulberry32(mixSeed(seed, 'ids'));
  const faults = new Faults();
  const timers = new Timers(clock);
  const serverTime = (): number => clock.now() + faults.skewMs;
  const tradeIds = idSource(2_300_000_000_000_000_001n);
  const markets = new Map<string, SymbolMarket>();
  for (const s of symbols) {
    const info = symbolInfo(s);
    if (info === undefined) throw new Error(`Unsupported symbol '${s}': the quote must be USDT, BTC or ETH`);
    markets.set(s, new SymbolMarket(info, seed, tradeIds, serverTime()));
  }
  const peers = new Peers(faults);
  const ctx: SimContext = {
    clock,
    timers,
    serverTime,
    markets,
    faults,
    peers,
    recorder: new Recorder(),
    periods: { kline: 300, realtimes: 500, trade: 300, depth: 300, ...periodsMs },
    depthLevels: Math.max(0, Math.min(200, depthLevels)),
  };
  let privateStreams: PrivateStreams | undefined;
  const listenKeys = new ListenKeys(timers, serverTime, ids, listenKeyValidityMs, (key, why) => privateStreams?.endKey(key, why));
  privateStreams = new PrivateStreams(ctx, {
    pingIntervalMs: privatePingIntervalMs,
    idleTimeoutMs: privateIdleTimeoutMs,
    batch: batchPrivateEvents,
    random: mulberry32(mixSeed(seed, 'private')),
    isActive: (key) => listenKeys.isActive(key),
  });
  const streams = privateStreams;
  const account = new Account(balances);
  const twoFa = new TwoFactor(twoFactor, serverTime, ids, twoFactorTokenTtlMs);
  const matching = new Matching({
    markets,
    account,
    now: serverTime,
    publish: (events) => streams.publish(events),
    orderIds: idSource(1_900_000_000_000_000_001n),
    ticketIds: idSource(1_950_000_000_000_000_001n),
    matchIds: idSource(1_800_000_000_000_000_001n),
    accountId: ACCOUNT_ID,
  });
  const step = (): void => {
    for (const m of markets.values()) matching.onTrades(m, m.step(serverTime()));
  };
  if (marketStepMs > 0) timers.every(marketStepMs, step);
  const miscIds = idSource(1_700_000_000_000_000_001n);
  const api = apiHandler({
    auth: { apiKey, secretKey, apiKeyHeader, serverTime },
    faults,
    listenKeys,
    twoFactor: twoFa,
    matching,
    account,
    accountId: ACCOUNT_ID,
    nextId: () => miscIds.next().toString(),
  });
  const control = createControl({ ctx, listenKeys, twoFactor: twoFa, matching, step, chaosSeed: mixSeed(seed, 'chaos') });
  const { traffic } = ctx.recorder;
  const controlApi = controlHandler(control);

  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const query = q < 0 ? '' : url.slice(q + 1);
      if (body === undefined) return reply(res, { status: 413, body: { code: rejections.bodyTooLarge.code, msg: rejections.bodyTooLarge.msg } });
      if (path.startsWith('/__control/')) return reply(res, controlApi(path.slice('/__control/'.length), body));
      if (recordTraffic) traffic.requests.push({ method: req.method ?? 'GET', url, headers: { ...req.headers }, body });
      return reply(res, api(req.method ?? 'GET', path, { query, body, headers: req.headers }));
    });
  });
  const wss = new WebSocketServer({ noServer: true, autoPong: false, maxPayload: MAX_BODY_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0];
    const isPublic = path === PUBLIC_PATH;
    const key = path.startsWith(PRIVATE_PREFIX) ? decodeURIComponent(path.slice(PRIVATE_PREFIX.length)) : undefined;
    if (!isPublic && key === undefined) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (recordTraffic) traffic.upgrades.push(req.url ?? '/');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const peer = peers.add(isPublic ? 'public' : 'private', ws);
      ws.on('error', () => undefined);
      if (recordTraffic) {
        ws.on('message', (data, isBinary) => {
          const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
          traffic.frames.push({ stream: peer.stream, data: buf.toString(isBinary ? 'base64' : 'utf8') });
        });
      }
      if (isPublic) servePublic(ctx, peer);
      else streams.serve(peer, key ?? '');
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const hostPort = `${host}:${bound}`;
  let closing: Promise<void> | undefined;
  return {
    ...control,
    baseUrl: `http://${hostPort}`,
    publicStreamUrl: `ws://${hostPort}${PUBLIC_PATH}`,
    privateStreamUrl: `ws://${hostPort}/api/v1/ws`,
    port: bound,
    apiKey,
    secretKey,
    clock,
    serverTime,
    activeListenKey: () => listenKeys.active(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        timers.clearAll();
        peers.terminateAll();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
