import { EMPTY, finalize, merge, mergeMap, type Observable, share, type Subject } from 'rxjs';
import type { DecodeError } from '../../errors';
import { type Connection, connectionCore } from '../../socket/connection';
import type { MarketConfig } from './marketConfig';
import { marketFeed } from './marketFeed';
import { type MarketFrameReader, marketFrameReader } from './marketFrameReader';
import { MarketStatusState } from './marketStatusState';
import { pacer } from './pacer';
import { type RequestBatcher, requestBatcher, v1RequestFrames } from './requestBatcher';
import type { TopicContext } from './topicSubscription';
import { v2FrameReader } from './v2FrameReader';
import { v2Message, v2RequestFrames } from './v2Frames';

/**
 * How long a `sub` frame counts as waiting for its answer (the service answers at once): an error frame that names
 * no request, or a lost socket, within this long is put down to the topics still waiting. @internal
 */
const ANSWER_WINDOW_MS = 1000;
/**
 * How long a socket must have been open before a suspect topic (one that may have made the service close a socket)
 * is sent on it: a service that closes every socket at once closes it before. @internal
 */
const SUSPECT_DELAY_MS = 250;

/** The connection of one `marketStreams`, its status and counters, and what its topic subscriptions share. @internal */
export interface MarketContext {
  readonly conn: Connection;
  readonly status: MarketStatusState;
  readonly ctx: TopicContext;
}

/**
 * The frame reader of a connection: `forwarding`'s when given, else V2's (frames of the usual shape; the others are
 * parsed and read into V1's shapes by `v2Message`) or V1's. @internal
 */
export function frameReaderOf(v2: boolean, forwarding: MarketFrameReader | undefined): MarketFrameReader | undefined {
  return forwarding ?? (v2 ? v2FrameReader() : marketFrameReader());
}

/** The connection of `cfg`, its status and the topics' context; non-fatal errors go to `errors`. @internal */
export function marketContext(cfg: MarketConfig, forwarding: MarketFrameReader | undefined, errors: Subject<Error>): MarketContext {
  const { connectionOptions, url, scheduler, WebSocketCtor, v2, rest } = cfg;
  // Every number the market layer reads is checked (a rounded 64-bit id fails its check), so frames are parsed
  // as they are and re-parsed with long integers quoted only when a check fails (see `TopicRouter.dispatch`).
  // The usual data frame (trades, candles, tickers) is read straight into its checked envelope and records.
  const status = new MarketStatusState(scheduler, () => conn.serverClock.offsetMs());
  const core = connectionCore(
    { ...connectionOptions, url, scheduler, ...(WebSocketCtor && { WebSocketCtor }) },
    { exactIntegers: 'on-demand', readFrame: frameReaderOf(v2, forwarding), sentAt: (epoch) => status.sentAt(epoch) },
  );
  const conn = core.connection;
  const report = (error: DecodeError): void => {
    status.count((c) => ({ decodeErrors: c.decodeErrors + 1 }));
    errors.next(error);
  };
  const requests = marketRequests(cfg, conn, errors);
  const { router, feed$ } = marketFeed(core, {
    onFrame: (now) => (status.frameAt = now),
    onDecodeError: report,
    onServiceFrame: (frame, byId) => requests.serviceFrame(frame, byId),
    readMessage: v2 ? v2Message : undefined,
  });
  /** Hands a pong's clock sample to `rest` (a throwing `clockSample` is reported, the stream goes on). */
  const feedClock = (offsetMs: number, rttMs: number): void => {
    try {
      rest?.clockSample(offsetMs, rttMs);
    } catch (e) {
      errors.next(e instanceof Error ? e : new Error(String(e)));
    }
  };
  // The feed keeps the socket open and routes its frames; the batcher follows the sockets (first: its last
  // cancels leave before the socket closes); with `rest`, the pongs' clock samples go along.
  const shared$: Observable<never> = merge(
    requests.watch(conn.status$),
    feed$,
    rest === undefined ? EMPTY : conn.serverClock.samples$.pipe(mergeMap(({ offsetMs, rttMs }) => (feedClock(offsetMs, rttMs), EMPTY))),
  ).pipe(
    finalize(() => status.stop()),
    share(),
  );
  const { subscribeTimeoutMs, random } = cfg;
  return { conn, status, ctx: { conn, router, feed$: shared$, requests, scheduler, subscribeTimeoutMs, random, status } };
}

/** The `sub` and `cancel` requests of `conn` (batched, paced, numbered); what they report goes to `errors`. @internal */
function marketRequests(cfg: MarketConfig, conn: Connection, errors: Subject<Error>): RequestBatcher {
  const { resubscribeRatePerSecond, subscribeBurst, scheduler, random, v2, maxSymbolsPerFrame, site, quarantineAfterCloses } = cfg;
  let lastId = 0;
  return requestBatcher({
    send: (frame) => conn.sendIfOpen(frame),
    pacer: pacer(resubscribeRatePerSecond, subscribeBurst, scheduler),
    scheduler,
    random,
    nextId: () => ++lastId,
    // V2: one symbol a frame (a comma list is refused)
    maxSymbolsPerFrame: v2 ? 1 : maxSymbolsPerFrame,
    frames: v2 ? v2RequestFrames(site) : v1RequestFrames(site),
    quarantineAfterCloses,
    answerWindowMs: ANSWER_WINDOW_MS,
    suspectDelayMs: SUSPECT_DELAY_MS,
    report: (error) => errors.next(error),
  });
}
