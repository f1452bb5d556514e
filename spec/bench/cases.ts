import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { inflateRawSync } from 'node:zlib';
import { filter, map, of, type Observable } from 'rxjs';
import { webSocket } from 'rxjs/webSocket';
import { WebSocket } from 'ws';
import { DepthEnvelopeCodec } from '../../lib/codecs/depth';
import { KlineEnvelopeCodec } from '../../lib/codecs/kline';
import { decodePrivateFrame } from '../../lib/codecs/privateEvents';
import { TradeEnvelopeCodec } from '../../lib/codecs/trade';
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';
import { decodeFrame } from '../../lib/frame/decodeFrame';
import type { RawInflater } from '../../lib/frame/frameLimits';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { SYMBOL, type Shape } from './frames';
import { marketStreams } from '../../lib/market/marketStreams';
import { userStream } from '../../lib/user/userStream';

/** Receives one record per delivered message (the first record of a data message). */
export type Sink = (record: unknown) => void;

/** A client pipeline under test: opens, resolves once ready to receive, returns its closer. */
export interface BenchCase {
  readonly name: string;
  /** Which transport it reads: JSON text frames or zip binary frames. */
  readonly transport: 'text' | 'zip';
  /** Shapes it can read (all text shapes when omitted). */
  readonly shapes?: readonly Shape[];
  open(url: string, shape: Shape, sink: Sink): Promise<() => void>;
}

const Ctor = WebSocket as unknown as WebSocketCtor;
const topicOf: Record<Shape, string> = { trade: 'trade', kline: 'kline', depth: 'depth', executionReport: '' };
const requestTopicOf: Record<Shape, string> = { trade: 'trade', kline: 'kline_1m', depth: 'depth', executionReport: '' };

const firstRecord = (json: unknown): unknown =>
  Array.isArray(json) ? json[0] : (json as { data: unknown[] }).data[0];

function rawSocket(url: string, onMessage: (data: Buffer, isBinary: boolean) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', onMessage);
    ws.once('open', () => resolve(() => ws.close()));
    ws.once('error', reject);
  });
}

/** The bytes of the first entry of a zip, inflated by node:zlib (the floor of the zip path). */
export function zlibFirstEntry(zip: Uint8Array): Buffer {
  const view = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = view.length - 22;
  const central = view.readUInt32LE(eocd + 16);
  const compressed = view.readUInt32LE(central + 20);
  const local = view.readUInt32LE(central + 42);
  const start = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28);
  return inflateRawSync(view.subarray(start, start + compressed));
}

export const rawCount: BenchCase = {
  name: 'raw ws, counting only',
  transport: 'text',
  open: (url, _shape, sink) => rawSocket(url, () => sink(undefined)),
};

export const floor: BenchCase = {
  name: 'raw ws + JSON.parse (floor)',
  transport: 'text',
  open: (url, _shape, sink) => rawSocket(url, (data) => sink(firstRecord(JSON.parse(data.toString())))),
};

export const zipFloor: BenchCase = {
  name: 'raw ws + node:zlib inflateRaw + JSON.parse (zip floor)',
  transport: 'zip',
  open: (url, _shape, sink) => rawSocket(url, (data) => sink(firstRecord(JSON.parse(zlibFirstEntry(data).toString())))),
};

function decodeFrameCase(name: string, inflateRaw?: RawInflater): BenchCase {
  const limits = inflateRaw ? { inflateRaw } : {};
  return {
    name,
    transport: 'zip',
    open: (url, _shape, sink) =>
      rawSocket(url, (data) => {
        const r = decodeFrame(data, limits);
        if (E.isRight(r)) sink(firstRecord(r.right));
      }),
  };
}

export const zipFflate = decodeFrameCase('raw ws + ex-streams decodeFrame (fflate)');
export const zipNodeInflate = decodeFrameCase('raw ws + ex-streams decodeFrame (nodeInflateRaw)', nodeInflateRaw);

/** RxJS `webSocket` + `multiplex`, JSON.parse as deserializer, then `decode` on each message. */
const NONE = Symbol('none');

function rxjsCase(name: string, decode: (shape: Shape) => (json: unknown) => unknown): BenchCase {
  return {
    name,
    transport: 'text',
    open: (url, shape, sink) =>
      new Promise((resolve) => {
        const subject = webSocket<unknown>({
          url,
          WebSocketCtor: Ctor as never,
          deserializer: (e) => JSON.parse(e.data as string),
          openObserver: { next: () => resolve(() => sub.unsubscribe()) },
        });
        const topic = topicOf[shape];
        const isMine =
          shape === 'executionReport'
            ? (m: unknown) => Array.isArray(m)
            : (m: unknown) => (m as { topic?: unknown }).topic === topic && (m as { symbol?: unknown }).symbol === SYMBOL;
        const frame = (event: string) => ({ symbol: SYMBOL, topic: requestTopicOf[shape], event, params: { binary: false }, id: 1 });
        const step = decode(shape);
        const sub = subject
          .multiplex(() => frame('sub'), () => frame('cancel'), isMine)
          .pipe(
            map(step),
            filter((r) => r !== NONE),
          )
          .subscribe(sink);
      }),
  };
}

const envelopeCodecs: Record<Exclude<Shape, 'executionReport'>, t.Decoder<unknown, { data: unknown[] }>> = {
  trade: TradeEnvelopeCodec,
  kline: KlineEnvelopeCodec,
  depth: DepthEnvelopeCodec,
};

/** The codecs of `ex-streams/codecs` through their `decode` (each runs its derived fast check first). */
function validated() {
  return (shape: Shape) => {
    if (shape === 'executionReport') {
      return (m: unknown) => {
        const rs = decodePrivateFrame(m);
        const r = rs[0];
        return r !== undefined && E.isRight(r) ? r.right : NONE;
      };
    }
    const codec = envelopeCodecs[shape];
    return (m: unknown) => {
      const r = codec.decode(m);
      return E.isRight(r) ? r.right.data[0] : NONE;
    };
  };
}

export const rxjsMultiplex = rxjsCase('RxJS webSocket + multiplex (no validation)', () => firstRecord);
export const rxjsCodecs = rxjsCase('RxJS webSocket + multiplex + ex-streams codecs (decode)', validated());

/**
 * ex-streams' own pipeline: `marketStreams(...).xxxMessages` or `userStream(...).events$` to a subscriber
 * (zip frames inflated by `inflateRaw` when given, fflate otherwise).
 */
export function libraryCase(name: string, transport: 'text' | 'zip' = 'text', inflateRaw?: RawInflater): BenchCase {
  return {
    name,
    transport,
    open: (url, shape, sink) =>
      new Promise((resolve) => {
        if (shape === 'executionReport') {
          const user = userStream({
            url,
            listenKey$: of('benchkey'),
            WebSocketCtor: Ctor,
            // Events are held at most 1 ms (default 250): the run ends when the last event arrives.
            reorder: { maxDelayMs: 1 },
          });
          const sub = user.events$.subscribe(sink);
          sub.add(user.status$.pipe(filter((s) => s.connection.type === 'open')).subscribe(() => setImmediate(() => resolve(() => sub.unsubscribe()))));
          return;
        }
        const market = marketStreams({
          url: url + '/quote/ws/v1',
          WebSocketCtor: Ctor,
          binary: transport === 'zip',
          ...(inflateRaw && { connection: { inflateRaw } }),
        });
        const messages$: Observable<{ data: readonly unknown[] }> =
          shape === 'trade'
            ? market.tradeMessages(SYMBOL)
            : shape === 'kline'
              ? market.klineMessages(SYMBOL, '1m')
              : market.depthMessages(SYMBOL);
        const sub = messages$.pipe(map((m) => m.data[0])).subscribe(sink);
        sub.add(
          market.status$.pipe(filter((s) => s.connection.type === 'open')).subscribe(() => setImmediate(() => resolve(() => sub.unsubscribe()))),
        );
      }),
  };
}
