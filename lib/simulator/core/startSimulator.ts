import type { AddressInfo } from 'node:net';
import { Account, DEFAULT_BALANCES } from '../orders/account';
import { realClock } from './clock';
import { RateLimiter } from '../http/rateLimit';
import type { SimContext } from './context';
import { createControl } from '../control/control';
import { controlHandler } from '../control/controlRoutes';
import { Faults } from '../chaos/faults';
import { resolveControlToken } from '../control/controlToken';
import { apiHandler } from '../http/httpApi';
import { ListenKeys } from '../streams/listenKeys';
import { idSource, SymbolMarket } from '../market/market';
import { MarketReplay } from '../market/marketReplay';
import { Matching } from '../orders/matching';
import { Peers } from '../streams/peers';
import { PrivateStreams } from '../streams/privateStream';
import { servePublic } from '../streams/publicStream';
import { createSimServer, PUBLIC_PATH, PUBLIC_V2_PATH } from '../http/simServer';
import { servePublicV2 } from '../streams/publicStreamV2';
import { mixSeed, mulberry32, randomAlnum } from './random';
import { readRecordedMarket } from '../market/recordedFrames';
import { Recorder } from '../chaos/recorder';
import { symbolInfo } from '../market/symbols';
import { Timers } from './timers';
import { TwoFactor } from '../http/twoFactor';
import type { Simulator } from './simulator';
import type { SimulatorOptions } from './simulatorOptions';

const ACCOUNT_ID = '1500000000000000001';

/** `10^-decimals` as decimal text ("1", "0.01"). */
const unitText = (decimals: number): string => (decimals === 0 ? '1' : `0.${'1'.padStart(decimals, '0')}`);

/**
 * Starts a local exchange simulator: the HTTP API (listen keys, signed orders, account, 2FA endpoints), the
 * public stream and the private stream on one port of 127.0.0.1, driven by a seeded market generator and
 * an injectable clock, with a control surface for faults. `close()` releases every socket and timer.
 *
 * Defaults: port 0 (ephemeral), symbols BTCUSDT and ETHUSDT, seed 1, real clock, spec push periods
 * (kline 300 ms, realtimes 500, trade 300, depth 300), 200 depth levels, 100 000 USDT / 10 BTC / 100 ETH.
 * With `recordedMarket`, a recording is the market of the pairs it holds (paper fills: see
 * {@link RecordedMarketOptions}). See docs/simulator.md for every option, endpoint, error code and control.
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
    seed = 1,
    apiKeyHeader = 'X-EX-APIKEY',
    clock = realClock(),
    periodsMs = {},
    marketStepMs = 300,
    depthLevels = 200,
    binaryContainer = 'zip',
    balances = DEFAULT_BALANCES,
    twoFactor = false,
    twoFactorTokenTtlMs = 30_000,
    listenKeyValidityMs = 3_600_000,
    privatePingIntervalMs = 30_000,
    privateIdleTimeoutMs = 3_600_000,
    batchPrivateEvents = false,
    pendingNew = true,
    pendingCancel = true,
    recordTraffic = false,
    sentTradeIds = Infinity,
    rateLimit,
    clockSkewMs = 0,
    symbolRules = {},
    recordedMarket,
  } = options;
  const recorded = recordedMarket === undefined ? undefined : readRecordedMarket(recordedMarket.recording);
  const speed = recordedMarket?.speed ?? 1;
  if (!(speed > 0 && Number.isFinite(speed))) throw new Error(`recordedMarket.speed must be a finite number > 0, got ${speed}`);
  // by default the recorded pairs the simulator can serve (a quote it does not know leaves a pair out)
  const symbols = options.symbols ?? (recorded !== undefined ? [...recorded.symbols.keys()].filter((s) => symbolInfo(s) !== undefined) : ['BTCUSDT', 'ETHUSDT']);
  const credentials = mulberry32(mixSeed(seed, 'credentials'));
  const apiKey = options.apiKey ?? `sim${randomAlnum(credentials, 61)}`;
  const secretKey = options.secretKey ?? randomAlnum(credentials, 64);
  const ids = mulberry32(mixSeed(seed, 'ids'));
  const faults = new Faults();
  faults.skewMs = clockSkewMs;
  const timers = new Timers(clock);
  const serverTime = (): number => clock.now() + faults.skewMs;
  const tradeIds = idSource(2_300_000_000_000_000_001n);
  const markets = new Map<string, SymbolMarket>();
  const unknownRules = Object.keys(symbolRules).find((s) => !symbols.includes(s));
  if (unknownRules !== undefined) throw new Error(`symbolRules names '${unknownRules}', which is not one of the simulated symbols`);
  for (const s of symbols) {
    const decimals = recorded?.symbols.get(s);
    // a recorded pair's tick and step hold every recorded price and quantity, unless the caller's rules say otherwise
    const rules = decimals === undefined ? symbolRules[s] : { tickSize: unitText(decimals.priceDecimals), stepSize: unitText(decimals.qtyDecimals), ...symbolRules[s] };
    const info = symbolInfo(s, rules);
    if (info === undefined) throw new Error(`Unsupported symbol '${s}': the quote must be USDT, BTC or ETH`);
    markets.set(s, new SymbolMarket(info, seed, tradeIds, serverTime(), decimals !== undefined));
  }
  const peers = new Peers(faults);
  const replay =
    recorded === undefined
      ? undefined
      : new MarketReplay({ data: recorded, speed, markets, timers, now: serverTime, onTrades: (m, trades) => matching.onTrades(m, trades) }); // begins once matching exists
  const ctx: SimContext = {
    clock,
    timers,
    serverTime,
    markets,
    faults,
    peers,
    recorder: new Recorder(sentTradeIds),
    periods: { kline: 300, realtimes: 500, trade: 300, depth: 300, ...periodsMs },
    depthLevels: Math.max(0, Math.min(200, depthLevels)),
    binaryContainer: binaryContainer === 'gzip' ? 'gzip' : 'zip',
    replay,
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
    pendingNew,
    pendingCancel,
  });
  const step = (): void => {
    for (const m of markets.values()) matching.onTrades(m, m.step(serverTime()));
  };
  if (marketStepMs > 0 && [...markets.values()].some((m) => !m.recorded)) timers.every(marketStepMs, step);
  replay?.begin();
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
    markets,
    ...(rateLimit !== undefined ? { rateLimiter: new RateLimiter(rateLimit, () => clock.now()) } : {}),
  });
  const control = createControl({ ctx, listenKeys, twoFactor: twoFa, matching, step, chaosSeed: mixSeed(seed, 'chaos'), privateStreams: streams });
  const { traffic } = ctx.recorder;
  const controlApi = controlHandler(control);

  const controlToken = resolveControlToken(host, options.controlToken);
  const { server, wss } = createSimServer({
    api,
    control: controlApi,
    controlToken,
    after: (ms, fn) => {
      timers.after(ms, fn);
    },
    onRequest: (method, url, headers, body) => {
      if (recordTraffic) traffic.requests.push({ method, url, headers: { ...headers }, body });
    },
    onUpgrade: (url) => {
      if (recordTraffic) traffic.upgrades.push(url);
    },
    serve: (ws, stream) => {
      const peer = peers.add(stream.kind, ws);
      if (recordTraffic) {
        ws.on('message', (data, isBinary) => {
          const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
          traffic.frames.push({ stream: peer.stream, data: buf.toString(isBinary ? 'base64' : 'utf8') });
        });
      }
      if (stream.kind === 'public') (stream.v2 === true ? servePublicV2 : servePublic)(ctx, peer);
      else streams.serve(peer, stream.key);
    },
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (e: Error): void => {
      timers.clearAll(); // a failed start leaves nothing running (the CLI exits on its own)
      wss.close();
      reject(e);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${bound}`;
  let closing: Promise<void> | undefined;
  return {
    ...control,
    baseUrl: `http://${hostPort}`,
    publicStreamUrl: `ws://${hostPort}${PUBLIC_PATH}`,
    publicStreamV2Url: `ws://${hostPort}${PUBLIC_V2_PATH}`,
    privateStreamUrl: `ws://${hostPort}/api/v1/ws`,
    port: bound,
    symbols,
    apiKey,
    secretKey,
    apiKeyHeader,
    controlToken,
    clock,
    serverTime,
    activeListenKey: () => listenKeys.active(),
    breakBookSequence: (mode) => {
      faults.bookSequence.push(mode);
    },
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
