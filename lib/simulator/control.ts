import type { SimContext } from './context';
import { parseDecimal } from './decimal';
import type { ListenKeys } from './listenKeys';
import type { Matching } from './matching';
import type { TwoFactor } from './twoFactor';
import type { SimulatorControl } from './types';

/** @internal */
export interface ControlDeps {
  readonly ctx: SimContext;
  readonly listenKeys: ListenKeys;
  readonly twoFactor: TwoFactor;
  readonly matching: Matching;
  /** One market step for every symbol. */
  readonly step: () => void;
}

/**
 * The in-process control surface of a simulator.
 * @internal
 */
export function createControl(d: ControlDeps): SimulatorControl {
  const { ctx } = d;
  return {
    drop: ({ stream, code, reason }) => {
      for (const p of ctx.peers.of(stream)) {
        if (code === undefined) p.ws.terminate();
        else p.ws.close(code, reason ?? 'dropped by simulator');
      }
    },
    stall: ({ stream }) => ctx.faults.stall(stream),
    resume: () => ctx.faults.resume(),
    sendRaw: ({ stream, data }) => {
      for (const p of ctx.peers.of(stream)) if (p.open) p.ws.send(data, { binary: typeof data !== 'string' });
    },
    privateChaos: (options) => ctx.faults.setChaos(options),
    expireListenKey: () => d.listenKeys.expireActive(),
    rejectNextRequests: (n, options) => ctx.faults.rejectNext(n, options),
    skewClock: (ms) => {
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
    observed: () => ({
      subscriptions: [...ctx.recorder.subscriptions],
      cancels: [...ctx.recorder.cancels],
      pings: [...ctx.recorder.pings],
      pongs: [...ctx.recorder.pongs],
      connections: { public: ctx.peers.count('public'), private: ctx.peers.count('private') },
      accepted: { ...ctx.peers.accepted },
    }),
    sent: () => ctx.recorder.sent(),
  };
}
