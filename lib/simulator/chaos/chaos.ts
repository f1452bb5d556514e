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
  if (kinds.length === 0 || !(meanIntervalMs > 0)) throw new Error('startChaos needs at least one kind and a positive meanIntervalMs');
  const { control, timers, now } = deps;
  const random = mulberry32(seed);
  const injected: InjectedFault[] = [];
  const cancels = new Set<() => void>();
  let round: ChaosFaultKind[] = [];
  let stallEnd = 0;
  let chaosEnd = 0;
  let chaos = { duplicateProbability: 0, reorderWindowMs: 0 };
  let stopped = false;
  /** Open sockets per selector just before the current injection (a drop closes them asynchronously). */
  let openBefore: Record<StreamSelector, number> = { public: 0, private: 0, all: 0 };

  const later = (ms: number, fn: () => void): void => {
    const cancel = timers.after(ms, () => {
      cancels.delete(cancel);
      fn();
    });
    cancels.add(cancel);
  };
  const record = (kind: ChaosFaultKind, stream: InjectedFault['stream'], detail: string, durationMs = 0): void => {
    const at = now();
    const sockets = stream === 'http' ? 0 : openBefore[stream];
    injected.push({ kind, at, endsAt: at + durationMs, stream, detail, sockets });
  };
  const anyStream = (): StreamSelector => pick<StreamSelector>(random, ['public', 'private', 'all']);
  const oneStream = (): StreamKind => pick<StreamKind>(random, ['public', 'private']);
  const privateWindow = (change: Partial<typeof chaos>, kind: ChaosFaultKind, detail: string): void => {
    chaos = { ...chaos, ...change };
    control.privateChaos(chaos);
    chaosEnd = Math.max(chaosEnd, now() + privateChaosWindowMs);
    record(kind, 'private', detail, privateChaosWindowMs);
    later(privateChaosWindowMs, () => {
      if (now() < chaosEnd) return;
      chaos = { duplicateProbability: 0, reorderWindowMs: 0 };
      control.privateChaos(chaos);
    });
  };

  const inject = (kind: ChaosFaultKind): void => {
    switch (kind) {
      case 'drop': {
        const stream = anyStream();
        control.drop({ stream });
        return record(kind, stream, 'abrupt (1006)');
      }
      case 'close': {
        const stream = anyStream();
        control.drop({ stream, code: 1012, reason: 'service restart' });
        return record(kind, stream, 'close 1012');
      }
      case 'stall': {
        const stream = anyStream();
        const ms = Math.round(maxStallMs / 8 + random() * (maxStallMs - maxStallMs / 8));
        // Even lengths hold the client's frames until the stall ends (a paused server); odd ones drop them
        // (`inbound: 'drop'`: lost pings and `sub`s, recovered by the subscribe watchdog). No extra draw.
        control.stall({ stream, inbound: ms % 2 === 0 ? 'hold' : 'drop' });
        stallEnd = Math.max(stallEnd, now() + ms);
        record(kind, stream, `${ms} ms`, ms);
        return later(ms, () => {
          if (now() >= stallEnd) control.resume();
        });
      }
      case 'halfOpen': {
        const stream = oneStream();
        const cut = control.halfOpen({ stream, durationMs: halfOpenMs });
        return record(kind, stream, `${cut} socket(s) for ${halfOpenMs} ms`, halfOpenMs);
      }
      case 'malformed': {
        const stream = oneStream();
        const frame = pick(random, MALFORMED_FRAMES)();
        control.sendRaw({ stream, data: frame.data });
        return record(kind, stream, frame.name);
      }
      case 'wrongShape': {
        const stream = oneStream();
        const frame = pick(random, wrongShapedFrames(stream, pick(random, deps.symbols), now()));
        control.sendRaw({ stream, data: frame.data });
        return record(kind, stream, frame.name);
      }
      case 'duplicate':
        return privateWindow({ duplicateProbability }, kind, `p=${duplicateProbability}`);
      case 'reorder':
        return privateWindow({ reorderWindowMs }, kind, `window ${reorderWindowMs} ms`);
      case 'listenKeyExpiry':
        return record(kind, 'private', control.expireListenKey() ? 'expired' : 'no active key');
      case 'rejectRequests': {
        const n = 1 + Math.floor(random() * 3);
        const status = pick(random, [429, 503]);
        control.rejectNextRequests(n, { status });
        return record(kind, 'http', `next ${n} requests → ${status}`);
      }
      case 'clockSkew': {
        const ms = Math.round(skewRangeMs[0] + random() * (skewRangeMs[1] - skewRangeMs[0]));
        control.skewClock(ms);
        return record(kind, 'http', `skew ${ms} ms`);
      }
      default: {
        const never: never = kind;
        return never;
      }
    }
  };

  const next = (): void => {
    if (stopped) return;
    later(Math.round(meanIntervalMs * (0.5 + random())), () => {
      if (round.length === 0) round = shuffled(random, kinds);
      openBefore = { public: deps.openSockets('public'), private: deps.openSockets('private'), all: deps.openSockets('all') };
      inject(round.shift()!);
      next();
    });
  };
  next();

  return {
    stop: () => {
      if (stopped) return;
      stopped = true;
      for (const cancel of cancels) cancel();
      cancels.clear();
      if (stallEnd > 0) control.resume();
      if (chaosEnd > 0) control.privateChaos({ duplicateProbability: 0, reorderWindowMs: 0 });
    },
    injected: () => [...injected],
  };
}
