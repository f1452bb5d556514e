import { filter, race, type SchedulerLike, take, timer } from 'rxjs';
import type { RecordedEvent } from '../recording';
import type { ExchangeStream } from '../sentFrame';
import type { ExchangeServer } from './exchangeServer';
import type { ExchangeSocket } from './exchangeSocket';
import type { RunLimit } from './runLimit';
import { binaryFrameText, routeOf, withId } from './recordedFrame';

/** At speed `Infinity`, how long an `open` waits for the client's first `sub` before the frames after it are played. */
const SUBSCRIBE_WAIT_MS = 1000;

/**
 * The key under which an events array handed to the player (through `exchange.server.replay`) carries the rest of a
 * lazily read recording: the array holds the first lines (up to the first `open` or `close`, so the stream and the
 * first lifecycle event are known), the iterator the lines after them, pulled one at a time as they are played
 * ({@link lazyEvents}).
 * @internal
 */
const REST: unique symbol = Symbol('ex-streams.replay.rest');

type EventsWithRest = readonly RecordedEvent[] & { readonly [REST]?: Iterator<RecordedEvent> };

/**
 * An events array for `exchange.server.replay` whose lines after `head` are pulled from `rest` as they are played
 * (`replayMarket` of a lazily read recording): a day of lines is never held at once.
 * @internal
 */
export function lazyEvents(head: RecordedEvent[], rest: Iterator<RecordedEvent>): readonly RecordedEvent[] {
  return Object.assign(head, { [REST]: rest });
}

/** How a recording is played on the test exchange (see `TestExchangeServer.replay`). @internal */
export interface PlayOptions {
  readonly stream: ExchangeStream;
  /** Recorded ms per replayed ms: 1 real time, N N× faster, `Infinity` as fast as the client keeps up. */
  readonly speed: number;
  /** Called once, after the last event was played. */
  readonly onEnd: () => void;
}

/**
 * Plays recorded events on a test exchange's server, one at a time (a cursor: a day of frames is never queued on the
 * scheduler at once), each at `start + (t - t0) / speed` where `t0` is the first event's time:
 *
 * - a frame goes to every open socket of the stream that has a live subscription of its route (public: the frame's
 *   `symbol` and topic, with the replay client's request `id`); frames that are no topic's data (pongs, acks, errors)
 *   are not played: the exchange answers the replay client's own pings and requests;
 * - `close` closes the stream's open sockets with the recorded code, then holds new handshakes (the exchange's stall)
 *   until the next `open`, so a client that reconnects at once opens its new epoch at the recorded time;
 * - a recording that starts with `open` holds handshakes until then too;
 * - at speed `Infinity` every event is due at once; an `open` then waits for the client's next socket, and each
 *   lifecycle event lets the client act (reconnect, resubscribe: the frames after an `open` wait for its first `sub`,
 *   at most 1 s) before the frames after it are played.
 * @internal
 */
export class ReplayPlayer {
  private index = 0;
  /** The lines after the array, pulled one at a time (a lazily read recording), and the one pulled ahead. */
  private readonly rest: Iterator<RecordedEvent> | undefined;
  private pulled: RecordedEvent | undefined;
  private readonly t0: number;
  /** Replay time of `t0`; moved later by the waits for the client's subscription after an `open` (finite speed). */
  private start: number;
  private waiting = false;

  constructor(
    private readonly server: ExchangeServer,
    private readonly scheduler: SchedulerLike,
    private readonly events: readonly RecordedEvent[],
    private readonly options: PlayOptions,
    private readonly limit: RunLimit,
  ) {
    this.rest = (events as EventsWithRest)[REST];
    this.t0 = events[0]?.t ?? 0;
    this.start = scheduler.now();
    limit.extend(this.timeOf(events[events.length - 1]?.t ?? this.t0));
    const firstLifecycle = events.find((e) => e.k === 'open' || e.k === 'close');
    if (firstLifecycle?.k === 'open') server.setStalled(options.stream, true);
    this.next();
  }

  /** The replay time of recorded time `t`. */
  timeOf(t: number): number {
    return this.options.speed === Infinity ? this.start : this.start + (t - this.t0) / this.options.speed;
  }

  /** The next event to play (pulled from the rest once the array is played), `undefined` at the end. */
  private peek(): RecordedEvent | undefined {
    if (this.index < this.events.length) return this.events[this.index];
    if (this.pulled === undefined && this.rest !== undefined) {
      const next = this.rest.next();
      if (next.done !== true) this.pulled = next.value;
    }
    return this.pulled;
  }

  /** Moves past the event `peek()` gave. */
  private advance(): void {
    if (this.index < this.events.length) this.index++;
    else this.pulled = undefined;
  }

  private next(): void {
    const event = this.peek();
    if (event === undefined) {
      this.scheduler.schedule(() => this.options.onEnd());
      return;
    }
    const at = this.timeOf(event.t);
    if (this.rest !== undefined) this.limit.extend(at);
    this.scheduler.schedule(() => this.play(), Math.max(0, at - this.scheduler.now()));
  }

  /** Plays every event due now; stops after a lifecycle event at speed `Infinity` (the client acts first). */
  private play(): void {
    const now = this.scheduler.now();
    for (let event = this.peek(); event !== undefined && this.timeOf(event.t) <= now; event = this.peek()) {
      if (event.k === 'open' && this.options.speed === Infinity && !this.hasSocket()) {
        this.awaitSocket();
        return;
      }
      this.advance();
      this.apply(event);
      if (event.k === 'open' && this.options.stream === 'public' && (this.options.speed === Infinity || this.hasSocket())) {
        this.awaitSubscription();
        return;
      }
      if (this.options.speed === Infinity && (event.k === 'open' || event.k === 'close')) break;
    }
    this.next();
  }

  /**
   * After an `open` (at speed `Infinity`, or at a finite speed when the client has a socket): the frames after it wait
   * for the client's first `sub` on the stream (its topics resubscribed), or `SUBSCRIBE_WAIT_MS` if none comes. At a
   * finite speed the rest of the timeline moves by the wait (none in virtual time, where the client subscribes in the
   * same instant; a handshake's real latency on `asyncScheduler`), so no frame is due before its topic is subscribed:
   * at 10× or 100× the first frames of a recording came a few ms after its `open`, before the client's `sub`, and were
   * lost.
   */
  private awaitSubscription(): void {
    const waitFrom = this.scheduler.now();
    race(this.server.sent$.pipe(filter((f) => f.stream === this.options.stream && f.kind === 'sub')), timer(SUBSCRIBE_WAIT_MS, this.scheduler))
      .pipe(take(1))
      .subscribe(() =>
        this.scheduler.schedule(() => {
          if (this.options.speed !== Infinity) this.start += this.scheduler.now() - waitFrom;
          this.play();
        }),
      );
  }

  private hasSocket(): boolean {
    const side = this.server.sides[this.options.stream];
    return side.pending.length > 0 || side.sockets.some((s) => s.readyState !== 3);
  }

  private awaitSocket(): void {
    if (this.waiting) return;
    this.waiting = true;
    const subscription = this.server.created$.subscribe((socket) => {
      if (socket.stream !== this.options.stream) return;
      subscription.unsubscribe();
      this.waiting = false;
      this.scheduler.schedule(() => this.play());
    });
  }

  private apply(event: RecordedEvent): void {
    const stream = this.options.stream;
    switch (event.k) {
      case 'f':
        this.deliver(event.d);
        return;
      case 'b': {
        const text = binaryFrameText(event.d);
        if (text !== undefined) this.deliver(text);
        return;
      }
      case 'open':
        this.server.setStalled(stream, false);
        return;
      case 'close':
        // the recording's last event, a clean close (the recorder's `stop()`): its end, not a loss to replay
        if (event.code === 1000 && this.peek() === undefined) return;
        for (const socket of [...this.server.sides[stream].sockets]) {
          if (socket.readyState !== 3) this.server.close(socket, { code: event.code });
        }
        this.server.setStalled(stream, true);
        return;
      case 'start':
      case 'gap':
      case 'exchangeInfo': // read by replayMarket before the replay (its rules, its candle history)
      case 'klines':
        return;
      default: {
        const never: never = event;
        return never;
      }
    }
  }

  private deliver(text: string): void {
    const sockets = this.server.sides[this.options.stream].sockets;
    if (this.options.stream === 'private') {
      for (const socket of sockets) this.server.deliver(socket, text);
      return;
    }
    const route = routeOf(text);
    if (route === undefined) return;
    for (const socket of sockets) this.deliverTo(socket, route, text);
  }

  private deliverTo(socket: ExchangeSocket, route: string, text: string): void {
    if (socket.readyState !== 1) return;
    const live = socket.live.get(route);
    if (live !== undefined) this.server.deliver(socket, withId(text, live.id));
  }
}
