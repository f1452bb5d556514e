import { isKlineInterval, type KlineInterval } from '../market/candles';
import { isRecord } from '../../internal/guards';
import { clientNumber, clientText } from '../http/clientInput';
import type { SimContext } from '../core/context';
import { envelopeText, gzipText, zipText } from './envelope';
import type { SymbolMarket } from '../market/market';
import { depthRecord, klineRecord, realtimesRecord, tradeFeed } from '../market/marketRecords';
import { deltaRecord, type MergedBook, mergedBook, mergedRecord } from '../market/mergedDepth';
import type { Peer } from './peers';
import { parse, sendJson, stopAll, type Subscriptions, textOf } from './publicSocket';

/** Error frame codes of the public stream (text, as real deployments send them). @internal */
export const INVALID_REQUEST = { code: '-100001', desc: 'Invalid request' } as const;
/** @internal */
export const INVALID_PARAMS_CODE = '-100010';
/** Most pairs one `sub` / `cancel` may list (more: an `Invalid request` error frame). @internal */
export const MAX_SYMBOLS_PER_REQUEST = 100;
/**
 * The service's answer to a `sub` listing several pairs (comma-joined) when one of them is unknown: the whole
 * request is refused, and the answer names neither the pair nor the request id. @internal
 */
export const INVALID_SYMBOLS_BARE = { code: INVALID_PARAMS_CODE, desc: 'Invalid Symbols!' } as const;

type Topic =
  | { readonly name: 'kline'; readonly interval: KlineInterval }
  | { readonly name: 'realtimes' | 'trade' | 'depth' | 'mergedDepth' | 'diffMergedDepth' };

const parseTopic = (topic: string): Topic | undefined => {
  if (topic === 'realtimes' || topic === 'trade' || topic === 'depth' || topic === 'mergedDepth' || topic === 'diffMergedDepth') return { name: topic };
  const interval = /^kline_(.+)$/.exec(topic)?.[1];
  return interval !== undefined && isKlineInterval(interval) ? { name: 'kline', interval } : undefined;
};

const idText = (id: unknown): string => (typeof id === 'string' || typeof id === 'number' ? String(id) : '');

const asBoolean = (v: unknown): boolean => v === true || v === 'true';

/** A whole number param (number or text) within `[min, max]`, else `undefined`. */
const intParam = (v: unknown, min: number, max: number): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,3}$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
};

/** What a `sub` asked for beside `binary`: `limit` (levels a side) and `dumpScale` (merged books). */
interface SubParams {
  readonly limit: number | undefined;
  readonly dumpScale: number | undefined;
}

/**
 * Serves one public-stream connection: `sub` / `cancel` / `cancel_all` (one pair, or several comma-joined, no
 * spaces), `{ ping }` → `{ pong }`, the four topics on their periods, error frames for bad requests: an unknown pair
 * or topic of a one-pair request is answered `{ id, code, desc, symbol, topic }`; a several-pair `sub` naming an
 * unknown pair is refused whole with the bare `{ code: "-100010", desc: "Invalid Symbols!" }`. A recorded pair's
 * topics (`recordedMarket`) are pushed when the recording plays one of their messages, not on a period.
 * @internal
 */
export function servePublic(ctx: SimContext, peer: Peer): void {
  const subs: Subscriptions = new Map();
  peer.ws.on('close', () => stopAll(subs));
  peer.ws.on('message', (data) =>
    peer.receive(() => {
      const msg = parse(textOf(data));
      if (!isRecord(msg)) {
        sendJson(peer, INVALID_REQUEST);
        return;
      }
      onRequest(ctx, peer, subs, msg);
    }),
  );
}

/** Answers one request of a connection: a ping or pong, `cancel_all`, or a `sub` / `cancel` of one pair or several. */
function onRequest(ctx: SimContext, peer: Peer, subs: Subscriptions, msg: Record<string, unknown>): void {
  const at = ctx.serverTime();
  if (msg['ping'] !== undefined) {
    ctx.recorder.pings.push({ stream: 'public', connection: peer.id, ts: clientNumber(msg['ping']), at });
    sendJson(peer, { pong: at });
    return;
  }
  if (msg['pong'] !== undefined) {
    ctx.recorder.pongs.push({ stream: 'public', connection: peer.id, ts: clientNumber(msg['pong']), matched: false, at });
    return;
  }
  const id = idText(msg['id']);
  const { event, symbol, topic } = msg;
  if (event === 'cancel_all') {
    ctx.recorder.cancels.push({ stream: 'public', connection: peer.id, event, symbol: clientText(symbol), topic: clientText(topic), id, at });
    stopAll(subs);
    return;
  }
  if ((event !== 'sub' && event !== 'cancel') || typeof symbol !== 'string' || typeof topic !== 'string') {
    sendJson(peer, { ...(msg['id'] !== undefined ? { id } : {}), ...INVALID_REQUEST });
    return;
  }
  const rawParams = isRecord(msg['params']) ? msg['params'] : {};
  const binary = asBoolean(rawParams['binary']);
  const params: SubParams = { limit: intParam(rawParams['limit'], 1, 200), dumpScale: intParam(rawParams['dumpScale'], 0, 18) };
  const symbols = symbol.split(',');
  if (symbols.length > MAX_SYMBOLS_PER_REQUEST) {
    sendJson(peer, { id, ...INVALID_REQUEST });
    return;
  }
  const parsed = parseTopic(topic);
  if (event === 'sub' && symbols.length > 1 && parsed !== undefined && symbols.some((s) => !ctx.markets.has(s))) {
    // a batch with an unknown pair: nothing of it is subscribed, and the answer says neither which pair nor which request
    for (const s of symbols) ctx.recorder.subscriptions.push({ stream: 'public', connection: peer.id, symbol: s, topic, binary, id, at });
    sendJson(peer, INVALID_SYMBOLS_BARE);
    return;
  }
  for (const s of symbols) {
    if (event === 'cancel') {
      ctx.recorder.cancels.push({ stream: 'public', connection: peer.id, event, symbol: s, topic, id, at });
      subs.get(`${s}|${topic}`)?.();
      subs.delete(`${s}|${topic}`);
      continue;
    }
    ctx.recorder.subscriptions.push({ stream: 'public', connection: peer.id, symbol: s, topic, binary, id, at });
    const market = ctx.markets.get(s);
    if (market === undefined || parsed === undefined) {
      sendJson(peer, { id, code: INVALID_PARAMS_CODE, desc: market === undefined ? 'Invalid Symbols!' : 'Invalid Topic!', symbol: s, topic });
      continue;
    }
    if ((parsed.name === 'mergedDepth' || parsed.name === 'diffMergedDepth') && params.dumpScale === undefined) {
      sendJson(peer, { id, code: INVALID_PARAMS_CODE, desc: 'Parameter dumpScale missing!', symbol: s, topic });
      continue;
    }
    subscribe(ctx, peer, subs, { market, topicText: topic, topic: parsed, id, binary, params });
  }
}

/** One subscription asked for: the pair's market, the topic (as sent and parsed), the request's id and params. */
interface Subscription {
  readonly market: SymbolMarket;
  readonly topicText: string;
  readonly topic: Topic;
  readonly id: string;
  readonly binary: boolean;
  readonly params: SubParams;
}

/** Subscribes the connection to one topic of one pair (replacing the same one): a push now, then on its period or replay. */
function subscribe(ctx: SimContext, peer: Peer, subs: Subscriptions, { market, topicText, topic, id, binary, params }: Subscription): void {
  const key = `${market.info.symbol}|${topicText}`;
  subs.get(key)?.();
  let first = true;
  const { replay } = ctx;
  const replayed = replay?.serves(market.info.symbol) === true ? replay : undefined;
  const data = topicData(ctx, market, topicText, topic, params, replayed);
  const push = (): void => {
    const now = ctx.serverTime();
    const records = data(now, first);
    if (records === undefined) return;
    const text = envelopeText({
      symbol: market.info.symbol,
      topic: topic.name,
      ...(topic.name === 'kline' ? { klineType: topic.interval } : {}),
      binary,
      data: records,
      first,
      sendTime: now,
      id,
    });
    first = false;
    if (!peer.send(binary ? (ctx.binaryContainer === 'gzip' ? gzipText(text) : zipText(text)) : text)) return;
    ctx.recorder.publicMessage();
    if (topic.name === 'trade') ctx.recorder.tradesSent(market.info.symbol, records.map((r) => (r as { v: string }).v), ctx.clock.now());
  };
  push();
  // a recorded pair's topic is pushed when the recording plays one of its messages, others on their period
  const period = topic.name === 'mergedDepth' || topic.name === 'diffMergedDepth' ? ctx.periods.depth : ctx.periods[topic.name];
  subs.set(key, replayed !== undefined ? replayed.listen(market.info.symbol, topicText, push) : ctx.timers.every(period, push));
}

/**
 * The records of one subscription's next push at `now` (`first`: its first push), `undefined` when there is none
 * (a recorded topic the recording has not played yet). `diffMergedDepth` keeps the book last sent and its sequence.
 */
function topicData(
  ctx: SimContext,
  market: SymbolMarket,
  topicText: string,
  topic: Topic,
  params: SubParams,
  replayed: SimContext['replay'],
): (now: number, first: boolean) => readonly object[] | undefined {
  const levels = Math.min(params.limit ?? ctx.depthLevels, ctx.depthLevels);
  /** `diffMergedDepth`: the book last sent and its sequence number. */
  let sentBook: MergedBook | undefined;
  let sequence = 0;
  const nextTrades = tradeFeed(market);
  return (now, first) => {
    if (replayed !== undefined && !replayed.played(market.info.symbol, topicText)) return undefined;
    switch (topic.name) {
      case 'kline':
        return replayed?.records(market.info.symbol, topicText) ?? [klineRecord(market, topic.interval, now)];
      case 'realtimes':
        return replayed?.records(market.info.symbol, topicText) ?? [realtimesRecord(market, now)];
      case 'depth':
        return [depthRecord(market, levels, now)];
      case 'mergedDepth':
        return [mergedRecord(market, mergedBook(market, params.dumpScale ?? 0, levels), now, 0)];
      case 'diffMergedDepth': {
        const book = mergedBook(market, params.dumpScale ?? 0, levels);
        const before = sentBook;
        sentBook = book;
        if (before === undefined) {
          sequence = 0;
          return [mergedRecord(market, book, now, 0)];
        }
        // the fault: this delta's number skips one, or repeats the last
        // (a repeat waits for a delta to repeat: the snapshot's 0 is not one)
        const queued = ctx.faults.bookSequence[0];
        const fault = queued === 'skip' || (queued === 'repeat' && sequence > 0) ? ctx.faults.bookSequence.shift() : undefined;
        sequence = fault === 'skip' ? sequence + 2 : fault === 'repeat' ? sequence : sequence + 1;
        return [deltaRecord(market, before, book, now, sequence)];
      }
      case 'trade':
        return nextTrades(first);
      default: {
        const never: never = topic;
        return never;
      }
    }
  };
}
