import { distinctUntilChanged, type Observable, ReplaySubject, Subject } from 'rxjs';

/**
 * An estimate of the service's clock relative to the local one, from the heartbeat exchange: each public
 * pong `{ pong: serverTime }` answering one of our pings (the oldest not answered yet: the service answers in
 * order) gives a sample `offset = serverTime - (pingSentAt + rtt / 2)`; the estimate is the sample with the
 * smallest round trip among the last 8 (the least delayed sample has the least error). Private pongs echo our own timestamp and
 * only update {@link ServerClock.rttMs}.
 *
 * `marketStreams({ rest })` hands every sample to the REST client's clock (`rest.clockSample`), so signed
 * timestamps follow the service's clock while a public stream is open; with a bare connection, feed
 * {@link ServerClock.samples$} to `rest.clockSample` yourself.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import { connection } from 'ex-streams/connection';
 * declare const apiKey: string, secretKey: string;
 * const conn = connection({ url: 'wss://example.test/quote/ws/v1' });
 * const rest = restClient({ baseUrl: 'https://example.test', apiKey, secretKey });
 * conn.serverClock.samples$.subscribe(({ offsetMs, rttMs }) => rest.clockSample(offsetMs, rttMs));
 * conn.serverClock.offset$.subscribe((ms) => console.log(`server clock is ${ms} ms ahead, ± ${conn.serverClock.offsetErrorMs()} ms`));
 * ```
 */
export interface ServerClock {
  /** `serverTime - localTime` in ms; 0 until the first sample. */
  offsetMs(): number;
  /**
   * How far off `offsetMs()` can be, in ms: half the round trip of its sample (the service read its clock somewhere
   * within the round trip, not necessarily in the middle); 0 before any sample. A server time minus the offset and
   * this is the earliest local time that server time can stand for (how `open.downSince` dates a frame read late).
   */
  offsetErrorMs(): number;
  /** Each new estimate (no repeats); replays the current one to late subscribers. Never completes. */
  readonly offset$: Observable<number>;
  /** The latest measured round trip of a ping, in ms; `undefined` until one was measured. */
  rttMs(): number | undefined;
  /**
   * Every sample as measured, one per public pong answering our ping: `offsetMs` (`serverTime - localTime`)
   * and the round trip `rttMs` it was measured over. Hot (no replay); never errors, never completes.
   */
  readonly samples$: Observable<{
    /** `serverTime - localTime` in ms, as this pong measured it. */
    readonly offsetMs: number;
    /** The round trip of the ping it answered, in ms. */
    readonly rttMs: number;
  }>;
}

/** A {@link ServerClock} fed by the connection. @internal */
export interface ServerClockSampler extends ServerClock {
  /** Records a round trip (private pong). */
  rtt(rttMs: number): void;
  /** Records a round trip with the server time it observed (public pong). */
  sample(offsetMs: number, rttMs: number): void;
}

/** Creates a {@link ServerClockSampler} keeping the last `window` samples. @internal */
export function serverClockSampler(window = 8): ServerClockSampler {
  const samples: { offsetMs: number; rttMs: number }[] = [];
  const offsets = new ReplaySubject<number>(1);
  let offset = 0;
  let error = 0;
  let lastRtt: number | undefined;
  const offset$ = offsets.pipe(distinctUntilChanged());
  const measured = new Subject<{ readonly offsetMs: number; readonly rttMs: number }>();
  return {
    offsetMs: () => offset,
    offsetErrorMs: () => error,
    offset$,
    rttMs: () => lastRtt,
    samples$: measured.asObservable(),
    rtt(rttMs) {
      lastRtt = rttMs;
    },
    sample(offsetMs, rttMs) {
      lastRtt = rttMs;
      samples.push({ offsetMs, rttMs });
      if (samples.length > window) samples.shift();
      let best = samples[0]!;
      for (const s of samples) if (s.rttMs < best.rttMs) best = s;
      offset = best.offsetMs;
      error = best.rttMs / 2;
      offsets.next(offset);
      measured.next({ offsetMs, rttMs });
    },
  };
}
