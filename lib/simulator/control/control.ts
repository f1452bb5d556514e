import { type ChaosDeps, startChaos } from '../chaos/chaos';
import type { SimContext } from '../core/context';
import { parseDecimal } from '../../decimal/fixed';
import type { ListenKeys } from '../streams/listenKeys';
import type { Matching } from '../orders/matching';
import type { PrivateStreams } from '../streams/privateStream';
import { privateEventOnDemand } from '../streams/privateEventOnDemand';
import type { TwoFactor } from '../http/twoFactor';
import type { SimulatorControl } from './simulatorControl';

/** @internal */
export interface ControlDeps {
  readonly ctx: SimContext;
  readonly listenKeys: ListenKeys;
  readonly twoFactor: TwoFactor;
  readonly matching: Matching;
  /** One market step for every symbol. */
  readonly step: () => void;
  /** Seed of the simulator (the chaos schedule's default seed derives from it). */
  readonly chaosSeed: number;
  /** The private streams (`pushPrivateEvent`; without them it throws). */
  readonly privateStreams?: PrivateStreams | undefined;
}

/**
 * The in-process control surface of a simulator.
 * @internal
 */
export function createControl(d: ControlDeps): SimulatorControl {
  const control: SimulatorControl = {
    ...socketFaults(d.ctx),
    ...venueControls(d),
    ...reports(d.ctx),
    startChaos: (options) => startChaos(chaosDeps(control, d), options),
  };
  return control;
}

/** The faults of the sockets: drops, stalls, half-open sockets, raw frames. */
function socketFaults(ctx: SimContext): Pick<SimulatorControl, 'drop' | 'stall' | 'resume' | 'halfOpen' | 'sendRaw'> {
  const { counts } = ctx.faults;
  return {
    drop: ({ stream, code, reason }) => {
      if (code === undefined) counts.drop += 1;
      else counts.close += 1;
      for (const p of ctx.peers.of(stream)) {
        if (p.blackHoled) continue; // nothing reaches through a half-open socket; it is dropped when that ends
        if (code === undefined) p.ws.terminate();
        else p.ws.close(code, reason ?? 'dropped by simulator');
      }
    },
    stall: ({ stream, inbound }) => {
      counts.stall += 1;
      ctx.faults.stall(stream, inbound);
    },
    resume: () => {
      ctx.faults.resume();
      for (const p of ctx.peers.of('all')) p.flushHeld();
    },
    halfOpen: ({ stream, durationMs }) => {
      counts.halfOpen += 1;
      const cut = ctx.peers.of(stream).filter((p) => p.open && !p.blackHoled);
      for (const p of cut) p.blackHole();
      ctx.timers.after(Math.max(0, durationMs), () => {
        for (const p of cut) p.ws.terminate();
      });
      return cut.length;
    },
    sendRaw: ({ stream, data }) => {
      counts.rawFrame += 1;
      for (const p of ctx.peers.of(stream)) if (p.open && !p.blackHoled) p.ws.send(data, { binary: typeof data !== 'string' });
    },
  };
}

/** The venue's controls: private events and chaos, listen keys, request faults, the clock, 2FA, trades and steps. */
function venueControls(d: ControlDeps): Omit<SimulatorControl, keyof ReturnType<typeof socketFaults> | keyof ReturnType<typeof reports> | 'startChaos'> {
  const { ctx } = d;
  const { counts } = ctx.faults;
  return {
    pushPrivateEvent: (event, options) => {
      if (d.privateStreams === undefined) throw new Error('pushPrivateEvent: this control has no private streams');
      d.privateStreams.push(privateEventOnDemand(event, ctx.serverTime()), options?.withNext === true);
    },
    privateChaos: (options) => ctx.faults.setChaos(options),
    expireListenKey: () => {
      const expired = d.listenKeys.expireActive();
      if (expired) counts.listenKeyExpiry += 1;
      return expired;
    },
    rejectNextRequests: (n, options) => ctx.faults.rejectNext(n, options),
    loseNextAnswers: (n, options) => ctx.faults.loseNext(n, options),
    skewClock: (ms) => {
      counts.clockSkew += 1;
      ctx.faults.skewMs = ms;
    },
    setTwoFactor: (enabled) => {
      d.twoFactor.enabled = enabled;
    },
    issueTwoFactorToken: () => d.twoFactor.issue(),
    injectTrade: ({ symbol, price, quantity = '1' }) => {
      const market = ctx.markets.get(symbol);
      const p = parseDecimal(price);
      const q = parseDecimal(quantity);
      if (market === undefined || p === undefined || q === undefined || p <= 0n || q <= 0n) {
        throw new Error('injectTrade needs a known symbol and positive decimal price and quantity');
      }
      market.moveTo(p);
      d.matching.onTrades(market, [market.recordTrade(p, q, false, ctx.serverTime())]);
    },
    step: (n = 1) => {
      for (let i = 0; i < n; i++) d.step();
    },
  };
}

/** What the simulator saw and sent, and its traffic. */
function reports(ctx: SimContext): Pick<SimulatorControl, 'observed' | 'sent' | 'traffic'> {
  return {
    observed: () => ({
      subscriptions: [...ctx.recorder.subscriptions],
      cancels: [...ctx.recorder.cancels],
      pings: [...ctx.recorder.pings],
      pongs: [...ctx.recorder.pongs],
      connections: { public: ctx.peers.count('public'), private: ctx.peers.count('private') },
      accepted: { ...ctx.peers.accepted },
    }),
    sent: () => ctx.recorder.sent(ctx.faults.counts),
    traffic: () => ctx.recorder.trafficReport(),
  };
}

/** What a chaos schedule of this control drives. */
function chaosDeps(control: SimulatorControl, { ctx, chaosSeed }: ControlDeps): ChaosDeps {
  return {
    control,
    timers: ctx.timers,
    now: () => ctx.clock.now(),
    symbols: [...ctx.markets.keys()],
    openSockets: (stream) => ctx.peers.of(stream).filter((p) => p.open).length,
    defaultSeed: chaosSeed,
  };
}
