import { isKlineInterval, type KlineInterval } from '../market/candles';
import { isRecord } from '../../internal/guards';
import { clientNumber, clientText } from '../http/clientInput';
import type { SimContext } from '../core/context';
import { formatFixed } from '../../decimal/fixed';
import type { SymbolMarket } from '../market/market';
import { depthRecord, klineRecord, realtimesRecord, tradeFeed } from '../market/marketRecords';
import type { Peer } from './peers';
import { parse, sendJson, stopAll, type Subscriptions, textOf } from './publicSocket';

/**
 * The V2 public stream (`/quote/ws/v2`), as HashKey's "Public Stream (WS v2)" documents it: a request is
 * `{ topic, event, params: { symbol, klineType? } }` with one symbol (a comma list is refused with `-100011`), every
 * request is answered with itself and `code` / `msg` (`"0"` / `"Success"`), JSON only (`binary` is ignored), data
 * messages are `{ topic, params, data }` with one record in `data` (trades: the array of trades), `depth` and `bbo`
 * every `periods.v2Depth` (100 ms).
 *
 * @internal
 * @module
 */

/** The answer codes of the V2 stream. @internal */
export const V2_CODES = {
  success: { code: '0', msg: 'Success' },
  parameterError: { code: '-100011', msg: 'Parameter error!' },
  invalidSymbol: { code: '-100010', msg: 'Invalid Symbols!' },
  invalidRequest: { code: '-100001', msg: 'Invalid request' },
} as const;

type V2Topic = { readonly name: 'kline'; readonly interval: KlineInterval } | { readonly name: 'realtimes' | 'trade' | 'depth' | 'bbo' };

/** The best level of each side as the `bbo` record `{ s, t, b, bz, a, az }`, or `undefined` when a side is empty. */
function bboRecord(m: SymbolMarket, now: number): object | undefined {
  const book = m.bookToWrite();
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (bid === undefined || ask === undefined) return undefined;
  const { priceDecimals: p, qtyDecimals: q } = m.info;
  return { s: m.info.symbol, t: now, b: formatFixed(bid.price, p), bz: formatFixed(bid.qty, q), a: formatFixed(ask.price, p), az: formatFixed(ask.qty, q) };
}

/** Serves one V2 public-stream connection (see the module). @internal */
export function servePublicV2(ctx: SimContext, peer: Peer): void {
  const subs: Subscriptions = new Map();
  peer.ws.on('close', () => stopAll(subs));
  peer.ws.on('message', (data) =>
    peer.receive(() => {
      const msg = parse(textOf(data));
      if (!isRecord(msg)) {
        sendJson(peer, V2_CODES.invalidRequest);
        return;
      }
      onRequest(ctx, peer, subs, msg);
    }),
  );
}

/** Answers one request of a V2 connection: a ping or pong, or a `sub` / `cancel` of one pair's topic. */
function onRequest(ctx: SimContext, peer: Peer, subs: Subscriptions, msg: Record<string, unknown>): void {
  const at = ctx.serverTime();
  if (msg['ping'] !== undefined) {
    ctx.recorder.pings.push({ stream: 'public', connection: peer.id, ts: clientNumber(msg['ping']), at });
    sendJson(peer, { pong: at });
    return;
  }
  if (msg['pong'] !== undefined) return;
  const { topic, event } = msg;
  const params = isRecord(msg['params']) ? msg['params'] : undefined;
  const echo = { topic, event, params };
  if (typeof topic !== 'string' || (event !== 'sub' && event !== 'cancel') || params === undefined || typeof params['symbol'] !== 'string') {
    sendJson(peer, { ...echo, ...V2_CODES.invalidRequest });
    return;
  }
  const symbol = params['symbol'];
  const klineType = params['klineType'];
  if (symbol.includes(',')) {
    // one symbol a frame: a list is refused whole
    ctx.recorder.subscriptions.push({ stream: 'public', connection: peer.id, symbol, topic, binary: false, id: '', at });
    sendJson(peer, { ...echo, ...V2_CODES.parameterError });
    return;
  }
  const requestTopic = topic === 'kline' ? `kline_${clientText(klineType)}` : topic;
  const key = `${symbol}|${requestTopic}`;
  if (event === 'cancel') {
    ctx.recorder.cancels.push({ stream: 'public', connection: peer.id, event, symbol, topic: requestTopic, id: '', at });
    subs.get(key)?.();
    subs.delete(key);
    sendJson(peer, { ...echo, ...V2_CODES.success });
    return;
  }
  ctx.recorder.subscriptions.push({ stream: 'public', connection: peer.id, symbol, topic: requestTopic, binary: false, id: '', at });
  const parsed = parseTopic(topic, klineType);
  const market = ctx.markets.get(symbol);
  if (parsed === undefined) {
    sendJson(peer, { ...echo, ...V2_CODES.parameterError });
    return;
  }
  if (market === undefined) {
    sendJson(peer, { ...echo, ...V2_CODES.invalidSymbol });
    return;
  }
  sendJson(peer, { ...echo, ...V2_CODES.success });
  const echoed: Record<string, string> = { symbol };
  if (parsed.name === 'kline') echoed['klineType'] = parsed.interval;
  subscribe(ctx, peer, subs, market, key, parsed, echoed);
}

/** The topic a V2 request names (with its `klineType` for `kline`), `undefined` when it is not one. */
function parseTopic(topic: string, klineType: unknown): V2Topic | undefined {
  return topic === 'kline'
    ? typeof klineType === 'string' && isKlineInterval(klineType)
      ? { name: 'kline', interval: klineType }
      : undefined
    : topic === 'realtimes' || topic === 'trade' || topic === 'depth' || topic === 'bbo'
      ? { name: topic }
      : undefined;
}

/** Subscribes the connection to one topic of one pair (replacing the same one): a push now, then on its period. */
function subscribe(ctx: SimContext, peer: Peer, subs: Subscriptions, market: SymbolMarket, key: string, topic: V2Topic, params: Record<string, string>): void {
  subs.get(key)?.();
  let first = true;
  const nextTrades = tradeFeed(market);
  const data = (now: number): object | readonly object[] | undefined => {
    switch (topic.name) {
      case 'kline':
        return klineRecord(market, topic.interval, now);
      case 'realtimes':
        return realtimesRecord(market, now);
      case 'depth':
        return depthRecord(market, ctx.depthLevels, now);
      case 'bbo':
        return bboRecord(market, now);
      case 'trade':
        return nextTrades(first);
      default: {
        const never: never = topic;
        return never;
      }
    }
  };
  const push = (): void => {
    const record = data(ctx.serverTime());
    if (record === undefined) return;
    first = false;
    if (peer.send(JSON.stringify({ topic: topic.name, params, data: record }))) ctx.recorder.publicMessage();
  };
  push();
  const period = topic.name === 'depth' || topic.name === 'bbo' ? (ctx.periods.v2Depth ?? 100) : ctx.periods[topic.name];
  subs.set(key, ctx.timers.every(period, push));
}
