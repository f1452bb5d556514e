import { Observable, Subscription } from 'rxjs';
import { DecodeError } from '../../errors';
import type { ConnectionCore } from '../../socket/connection';
import type { FrameSink } from '../../frame/frameSink';
import { type ServiceFrameSink, TopicRouter } from './topicRouter';
import { ReadMessage } from './marketFrameReader';
import { IGNORED } from './v2Frames';

/**
 * Data path, market side (notes/architecture.md, "The data path"): step 4, where the connection's parsed frames
 * enter the market layer. The connection core (`connectionCore(...).frames(sink)`, steps 1-3: socket → bytes →
 * JSON) calls this feed's sink once per frame, in one plain call; the sink hands the frame to the router
 * (`TopicRouter`, step 5), which routes it and decodes its records for the topics (`topicSubscription`, step 6).
 *
 * @internal
 * @module
 */

/** What {@link marketFeed} reports. @internal */
export interface MarketFeedHooks {
  /** A frame arrived (scheduler time), before it is routed. */
  readonly onFrame: (now: number) => void;
  /**
   * The decode errors of one frame, as ONE `DecodeError`: the first, counting the others (a batch frame may hold
   * thousands of bad envelopes or records).
   */
  readonly onDecodeError: (error: DecodeError) => void;
  /** The service's error frames (see `ServiceFrameSink`). Default: none (each is a decode error). */
  readonly onServiceFrame?: ServiceFrameSink | undefined;
  /**
   * Reads a parsed frame of another dialect into the V1 shapes the router takes (V2: `v2Message`); `IGNORED`: not
   * handed on. Default: none (V1).
   */
  readonly readMessage?: ((message: unknown) => unknown) | undefined;
}

/** The feed of one market connection: its router, and the observable that runs it. @internal */
export interface MarketFeed {
  /** Where the topics register (`add`, `setId`, `remove`). */
  readonly router: TopicRouter;
  /**
   * Cold, emits nothing: subscribing opens (and keeps) the shared socket and routes every frame it brings;
   * it tracks the connection's epoch for the router. Errors when the connection gives up; completes when it
   * completes.
   */
  readonly feed$: Observable<never>;
}

/**
 * The market feed of `core`: every frame goes to the router in one plain call (no Subject or operator per
 * frame), and the decode errors it causes are reported once per frame (see {@link MarketFeedHooks}).
 * @internal
 */
export function marketFeed(core: ConnectionCore, hooks: MarketFeedHooks): MarketFeed {
  const { onFrame, onDecodeError, onServiceFrame, readMessage } = hooks;
  let inFrame = false;
  let failures = 0;
  let first: DecodeError | undefined;
  /** An issue of the router: reported at once outside a frame, else counted until the frame is done. */
  const collect = (error: DecodeError): void => {
    if (!inFrame) return onDecodeError(error);
    if (failures++ === 0) first = error;
  };
  // The router reads the exact parse of a frame (long integers quoted) as the feed reads the first.
  const router = new TopicRouter(collect, onServiceFrame, readMessage);
  const dispatch: FrameSink = (parsed, now, exactParse, text, scanned) => {
    onFrame(now);
    // what a frame reader read is in V1's shapes already
    const message = readMessage === undefined || parsed instanceof ReadMessage ? parsed : readMessage(parsed);
    if (message === IGNORED) return;
    inFrame = true;
    failures = 0;
    try {
      // A frame parsed as it is (`exact` on offer): the router parses its text again itself when a check fails.
      router.dispatch(message, exactParse !== undefined ? text : undefined, scanned);
    } finally {
      inFrame = false;
    }
    if (failures === 0) return;
    const reported = first!;
    first = undefined;
    onDecodeError(
      failures === 1
        ? reported
        : new DecodeError('codec', `${reported.message} (and ${failures - 1} more decode errors in the same frame)`, reported.paths, reported.raw),
    );
  };
  const feed$ = new Observable<never>((subscriber) => {
    let open = 2;
    const complete = (): void => {
      if (--open === 0) subscriber.complete();
    };
    const error = (e: unknown): void => subscriber.error(e);
    // Two sources side by side (neither's end tears the other down): the feed ends when both have.
    const subscription = new Subscription();
    subscription.add(core.connection.opened$.subscribe({ next: (epoch) => (router.epoch = epoch), error, complete }));
    subscription.add(core.frames(dispatch).subscribe({ error, complete }));
    return subscription;
  });
  return { router, feed$ };
}
