import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSocketServer } from 'ws';
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
import { createSimServer, PUBLIC_PATH, PUBLIC_V2_PATH, type SimServerDeps } from '../http/simServer';
import { servePublicV2 } from '../streams/publicStreamV2';
import { mixSeed, mulberry32, randomAlnum } from './random';
import { type RecordedMarketData, readRecordedMarket } from '../market/recordedFrames';
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
  const settings = withDefaults(options);
  const { host, seed, apiKeyHeader, clock } = settings;
  const pairs = servedPairs(options);
  const credentials = mulberry32(mixSeed(seed, 'credentials'));
  const apiKey = options.apiKey ?? `sim${randomAlnum(credentials, 61)}`;
  const secretKey = options.secretKey ?? randomAlnum(credentials, 64);
  const ids = mulberry32(mixSeed(seed, 'ids'));
  const faults = new Faults();
  faults.skewMs = settings.clockSkewMs;
  const timers = new Timers(clock);
  const serverTime = (): number => clock.now() + faults.skewMs;
  const markets = pairMarkets(pairs, settings, serverTime);
  const venue = openVenue({ settings, pairs, markets, faults, timers, serverTime, ids });
  const { ctx, listenKeys, matching } = venue;
  const miscIds = idSource(1_700_000_000_000_000_001n);
  const api = apiHandler({
    auth: { apiKey, secretKey, apiKeyHeader, serverTime },
    faults,
    listenKeys,
    twoFactor: venue.twoFactor,
    matching,
    account: venue.account,
    accountId: ACCOUNT_ID,
    nextId: () => miscIds.next().toString(),
    markets,
    ...(settings.rateLimit !== undefined ? { rateLimiter: new RateLimiter(settings.rateLimit, () => clock.now()) } : {}),
  });
  const control = createControl({ ctx, listenKeys, twoFactor: venue.twoFactor, matching, step: venue.step, chaosSeed: mixSeed(seed, 'chaos'), privateStreams: venue.privateStreams });
  const controlApi = controlHandler(control);
  const controlToken = resolveControlToken(host, options.controlToken);
  const { server, wss } = createSimServer({ api, control: controlApi, controlToken, ...serverHooks(venue, settings.recordTraffic) });
  const bound = await listen(server, wss, timers, settings.port, host);
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${bound}`;
  return {
    ...control,
    baseUrl: `http://${hostPort}`,
    publicStreamUrl: `ws://${hostPort}${PUBLIC_PATH}`,
    publicStreamV2Url: `ws://${hostPort}${PUBLIC_V2_PATH}`,
    privateStreamUrl: `ws://${hostPort}/api/v1/ws`,
    port: bound,
    symbols: pairs.symbols,
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
    close: closeOnce(() => {
      timers.clearAll();
      ctx.peers.terminateAll();
    }, wss, server),
  };
}

/** The options of {@link startSimulator} with their defaults. */
function withDefaults(options: SimulatorOptions) {
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
  } = options;
  return {
    port, host, seed, apiKeyHeader, clock, periodsMs, marketStepMs, depthLevels, binaryContainer, balances, twoFactor,
    twoFactorTokenTtlMs, listenKeyValidityMs, privatePingIntervalMs, privateIdleTimeoutMs, batchPrivateEvents, pendingNew,
    pendingCancel, recordTraffic, sentTradeIds, rateLimit, clockSkewMs, symbolRules,
  };
}

type Settings = ReturnType<typeof withDefaults>;

/** The pairs served, and the recording (read and checked before anything starts) and its speed when there is one. */
interface ServedPairs {
  readonly recorded: RecordedMarketData | undefined;
  readonly speed: number;
  readonly symbols: readonly string[];
}

function servedPairs(options: SimulatorOptions): ServedPairs {
  const { recordedMarket } = options;
  const recorded = recordedMarket === undefined ? undefined : readRecordedMarket(recordedMarket.recording);
  const speed = recordedMarket?.speed ?? 1;
  if (!(speed > 0 && Number.isFinite(speed))) throw new Error(`recordedMarket.speed must be a finite number > 0, got ${speed}`);
  // by default the recorded pairs the simulator can serve (a quote it does not know leaves a pair out)
  const symbols = options.symbols ?? (recorded !== undefined ? [...recorded.symbols.keys()].filter((s) => symbolInfo(s) !== undefined) : ['BTCUSDT', 'ETHUSDT']);
  return { recorded, speed, symbols };
}

/** The market of each pair, under the caller's rules; throws for rules of a pair not served or a pair not supported. */
function pairMarkets({ recorded, symbols }: ServedPairs, { seed, symbolRules }: Settings, serverTime: () => number): Map<string, SymbolMarket> {
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
  return markets;
}

/** What {@link openVenue} builds on. */
interface VenueBase {
  readonly settings: Settings;
  readonly pairs: ServedPairs;
  readonly markets: Map<string, SymbolMarket>;
  readonly faults: Faults;
  readonly timers: Timers;
  readonly serverTime: () => number;
  readonly ids: () => number;
}

/** The venue behind the server: its context, listen keys, private streams, account, 2FA and matching. */
interface Venue {
  readonly ctx: SimContext;
  readonly listenKeys: ListenKeys;
  readonly privateStreams: PrivateStreams;
  readonly account: Account;
  readonly twoFactor: TwoFactor;
  readonly matching: Matching;
  /** One step of every generated market, its trades matched. */
  readonly step: () => void;
}

/** Builds the venue and starts its markets (the generator's steps, the recording's replay). */
function openVenue({ settings, pairs, markets, faults, timers, serverTime, ids }: VenueBase): Venue {
  const { clock, seed } = settings;
  const peers = new Peers(faults);
  const replay =
    pairs.recorded === undefined
      ? undefined
      : new MarketReplay({ data: pairs.recorded, speed: pairs.speed, markets, timers, now: serverTime, onTrades: (m, trades) => matching.onTrades(m, trades) }); // begins once matching exists
  const ctx: SimContext = {
    clock,
    timers,
    serverTime,
    markets,
    faults,
    peers,
    recorder: new Recorder(settings.sentTradeIds),
    periods: { kline: 300, realtimes: 500, trade: 300, depth: 300, ...settings.periodsMs },
    depthLevels: Math.max(0, Math.min(200, settings.depthLevels)),
    binaryContainer: settings.binaryContainer === 'gzip' ? 'gzip' : 'zip',
    replay,
  };
  let privateStreams: PrivateStreams | undefined;
  const listenKeys = new ListenKeys(timers, serverTime, ids, settings.listenKeyValidityMs, (key, why) => privateStreams?.endKey(key, why));
  privateStreams = new PrivateStreams(ctx, {
    pingIntervalMs: settings.privatePingIntervalMs,
    idleTimeoutMs: settings.privateIdleTimeoutMs,
    batch: settings.batchPrivateEvents,
    random: mulberry32(mixSeed(seed, 'private')),
    isActive: (key) => listenKeys.isActive(key),
  });
  const streams = privateStreams;
  const account = new Account(settings.balances);
  const twoFactor = new TwoFactor(settings.twoFactor, serverTime, ids, settings.twoFactorTokenTtlMs);
  const matching = new Matching({
    markets,
    account,
    now: serverTime,
    publish: (events) => streams.publish(events),
    orderIds: idSource(1_900_000_000_000_000_001n),
    ticketIds: idSource(1_950_000_000_000_000_001n),
    matchIds: idSource(1_800_000_000_000_000_001n),
    accountId: ACCOUNT_ID,
    pendingNew: settings.pendingNew,
    pendingCancel: settings.pendingCancel,
  });
  const step = (): void => {
    for (const m of markets.values()) matching.onTrades(m, m.step(serverTime()));
  };
  if (settings.marketStepMs > 0 && [...markets.values()].some((m) => !m.recorded)) timers.every(settings.marketStepMs, step);
  replay?.begin();
  return { ctx, listenKeys, privateStreams: streams, account, twoFactor, matching, step };
}

/** The server's hooks into the venue: its timers, the traffic record (with `recordTraffic`) and the sockets' streams. */
function serverHooks({ ctx, privateStreams }: Venue, recordTraffic: boolean): Pick<SimServerDeps, 'after' | 'onRequest' | 'onUpgrade' | 'serve'> {
  const { timers, peers } = ctx;
  const { traffic } = ctx.recorder;
  return {
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
      else privateStreams.serve(peer, stream.key);
    },
  };
}

/** Listens on `host:port`, and resolves the port bound; a failed start leaves nothing running (the CLI exits on its own). */
async function listen(server: Server, wss: WebSocketServer, timers: Timers, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const failed = (e: Error): void => {
      timers.clearAll();
      wss.close();
      reject(e);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** The simulator's `close()`: `stop` (its timers and sockets), then the servers; the same promise on every call. */
function closeOnce(stop: () => void, wss: WebSocketServer, server: Server): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= new Promise<void>((resolve) => {
      stop();
      wss.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
}
