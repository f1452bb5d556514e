import { MALFORMED_FRAMES, wrongShapedFrames } from './badFrames';
import { CHAOS_FAULT_KINDS, type ChaosFaultKind, type ChaosHandle, type ChaosOptions, type InjectedFault } from './chaosTypes';
import { mulberry32 } from '../core/random';
import type { Timers } from '../core/timers';
import type { SimulatorControl } from '../control/simulatorControl';
import type { StreamKind, StreamSelector } from '../streams/streamKind';

/** What the chaos schedule drives. @internal */
export interface ChaosDeps {
  readonly control: SimulatorControl;
  readonly timers: Timers;
  readonly now: () => number;
  readonly symbols: readonly string[];
  /** Open websockets of a stream selector. */
  readonly openSockets: (stream: StreamSelector) => number;
  /** Seed used when the options give none. */
  readonly defaultSeed: number;
}

const pick = <A>(random: () => number, items: readonly A[]): A => items[Math.floor(random() * items.length)]!;

const shuffled = <A>(random: () => number, items: readonly A[]): A[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/**
 * A seeded schedule of random faults on the simulator's timers: waits uniform in [0.5, 1.5] × the mean,
 * kinds in rounds (each round a fresh seeded permutation, so every kind comes once per round), streams and
 * payloads drawn from the same PRNG. Deterministic for a seed on a manual clock.
 * @internal
 */
export function startChaos(deps: ChaosDeps, options: ChaosOptions = {}): ChaosHandle {
  const settings = chaosSettings(deps, options);
  if (settings.kinds.length === 0 || !(settings.meanIntervalMs > 0)) throw new Error('startChaos needs at least one kind and a positive meanIntervalMs');
  const run: ChaosRun = {
    deps,
    settings,
    random: mulberry32(settings.seed),
    injected: [],
    cancels: new Set(),
    round: [],
    stallEnd: 0,
    chaosEnd: 0,
    chaos: { duplicateProbability: 0, reorderWindowMs: 0 },
    stopped: false,
    openBefore: { public: 0, private: 0, all: 0 },
  };
  next(run);
  const { control } = deps;
  return {
    stop: () => {
      if (run.stopped) return;
      run.stopped = true;
      for (const cancel of run.cancels) cancel();
      run.cancels.clear();
      if (run.stallEnd > 0) control.resume();
      if (run.chaosEnd > 0) control.privateChaos({ duplicateProbability: 0, reorderWindowMs: 0 });
    },
    injected: () => [...run.injected],
  };
}

/** The options of {@link startChaos} with their defaults. */
function chaosSettings(deps: ChaosDeps, options: ChaosOptions) {
  const {
    seed = deps.defaultSeed,
    meanIntervalMs = 5000,
    kinds = CHAOS_FAULT_KINDS,
    maxStallMs = 4000,
    halfOpenMs = 40_000,
    privateChaosWindowMs = 3000,
    duplicateProbability = 0.5,
    reorderWindowMs = 150,
    skewRangeMs = [-2000, 2000],
  } = options;
  return { seed, meanIntervalMs, kinds, maxStallMs, halfOpenMs, privateChaosWindowMs, duplicateProbability, reorderWindowMs, skewRangeMs };
}

/** The private stream's chaos of the moment. */
interface PrivateChaos {
  readonly duplicateProbability: number;
  readonly reorderWindowMs: number;
}

/** A running schedule: what it drives, its settings and PRNG, and its state. */
interface ChaosRun {
  readonly deps: ChaosDeps;
  readonly settings: ReturnType<typeof chaosSettings>;
  readonly random: () => number;
  readonly injected: InjectedFault[];
  /** The cancels of its pending timers. */
  readonly cancels: Set<() => void>;
  /** The kinds left in the current round. */
  round: ChaosFaultKind[];
  stallEnd: number;
  chaosEnd: number;
  chaos: PrivateChaos;
  stopped: boolean;
  /** Open sockets per selector just before the current injection (a drop closes them asynchronously). */
  openBefore: Record<StreamSelector, number>;
}

/** Schedules the next injection (unless stopped): after a wait, the next kind of the round (a new round when it is done). */
function next(run: ChaosRun): void {
  if (run.stopped) return;
  const { deps, random } = run;
  later(run, Math.round(run.settings.meanIntervalMs * (0.5 + random())), () => {
    if (run.round.length === 0) run.round = shuffled(random, run.settings.kinds);
    run.openBefore = { public: deps.openSockets('public'), private: deps.openSockets('private'), all: deps.openSockets('all') };
    inject(run, run.round.shift()!);
    next(run);
  });
}

/** `fn` after `ms` on the simulator's timers, cancelled by `stop()`. */
function later(run: ChaosRun, ms: number, fn: () => void): void {
  const cancel = run.deps.timers.after(ms, () => {
    run.cancels.delete(cancel);
    fn();
  });
  run.cancels.add(cancel);
}

function record(run: ChaosRun, kind: ChaosFaultKind, stream: InjectedFault['stream'], detail: string, durationMs = 0): void {
  const at = run.deps.now();
  const sockets = stream === 'http' ? 0 : run.openBefore[stream];
  run.injected.push({ kind, at, endsAt: at + durationMs, stream, detail, sockets });
}

const anyStream = (random: () => number): StreamSelector => pick<StreamSelector>(random, ['public', 'private', 'all']);
const oneStream = (random: () => number): StreamKind => pick<StreamKind>(random, ['public', 'private']);

/** Changes the private stream's chaos for `privateChaosWindowMs` (the last window's end ends it). */
function privateWindow(run: ChaosRun, change: Partial<PrivateChaos>, kind: ChaosFaultKind, detail: string): void {
  const { control, now } = run.deps;
  const { privateChaosWindowMs } = run.settings;
  run.chaos = { ...run.chaos, ...change };
  control.privateChaos(run.chaos);
  run.chaosEnd = Math.max(run.chaosEnd, now() + privateChaosWindowMs);
  record(run, kind, 'private', detail, privateChaosWindowMs);
  later(run, privateChaosWindowMs, () => {
    if (now() < run.chaosEnd) return;
    run.chaos = { duplicateProbability: 0, reorderWindowMs: 0 };
    control.privateChaos(run.chaos);
  });
}

/** Injects one fault of `kind`, its stream and payload drawn from the schedule's PRNG, and records it. */
function inject(run: ChaosRun, kind: ChaosFaultKind): void {
  const { deps, random, settings } = run;
  const { control, now } = deps;
  switch (kind) {
    case 'drop': {
      const stream = anyStream(random);
      control.drop({ stream });
      return record(run, kind, stream, 'abrupt (1006)');
    }
    case 'close': {
      const stream = anyStream(random);
      control.drop({ stream, code: 1012, reason: 'service restart' });
      return record(run, kind, stream, 'close 1012');
    }
    case 'stall': {
      const stream = anyStream(random);
      const { maxStallMs } = settings;
      const ms = Math.round(maxStallMs / 8 + random() * (maxStallMs - maxStallMs / 8));
      // Even lengths hold the client's frames until the stall ends (a paused server); odd ones drop them
      // (`inbound: 'drop'`: lost pings and `sub`s, recovered by the subscribe watchdog). No extra draw.
      control.stall({ stream, inbound: ms % 2 === 0 ? 'hold' : 'drop' });
      run.stallEnd = Math.max(run.stallEnd, now() + ms);
      record(run, kind, stream, `${ms} ms`, ms);
      return later(run, ms, () => {
        if (now() >= run.stallEnd) control.resume();
      });
    }
    case 'halfOpen': {
      const stream = oneStream(random);
      const { halfOpenMs } = settings;
      const cut = control.halfOpen({ stream, durationMs: halfOpenMs });
      return record(run, kind, stream, `${cut} socket(s) for ${halfOpenMs} ms`, halfOpenMs);
    }
    case 'malformed': {
      const stream = oneStream(random);
      const frame = pick(random, MALFORMED_FRAMES)();
      control.sendRaw({ stream, data: frame.data });
      return record(run, kind, stream, frame.name);
    }
    case 'wrongShape': {
      const stream = oneStream(random);
      const frame = pick(random, wrongShapedFrames(stream, pick(random, deps.symbols), now()));
      control.sendRaw({ stream, data: frame.data });
      return record(run, kind, stream, frame.name);
    }
    case 'duplicate':
      return privateWindow(run, { duplicateProbability: settings.duplicateProbability }, kind, `p=${settings.duplicateProbability}`);
    case 'reorder':
      return privateWindow(run, { reorderWindowMs: settings.reorderWindowMs }, kind, `window ${settings.reorderWindowMs} ms`);
    case 'listenKeyExpiry':
      return record(run, kind, 'private', control.expireListenKey() ? 'expired' : 'no active key');
    case 'rejectRequests': {
      const n = 1 + Math.floor(random() * 3);
      const status = pick(random, [429, 503]);
      control.rejectNextRequests(n, { status });
      return record(run, kind, 'http', `next ${n} requests → ${status}`);
    }
    case 'clockSkew': {
      const { skewRangeMs } = settings;
      const ms = Math.round(skewRangeMs[0] + random() * (skewRangeMs[1] - skewRangeMs[0]));
      control.skewClock(ms);
      return record(run, kind, 'http', `skew ${ms} ms`);
    }
    default: {
      const never: never = kind;
      return never;
    }
  }
}
