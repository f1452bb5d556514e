import { type Subscription, VirtualTimeScheduler } from 'rxjs';
import { marketStreams } from '../../lib/market/marketStreams';
import { testExchange, tradeEnvelope, tradeRecord } from '../../lib/testing';
import { type ActionChains, sampleQueuedActions, watchActionChains } from '../helpers/actionChains';

const WEEK_MS = 7 * 86_400_000;

describe('testExchange: a socket open for days in virtual time', () => {
  let chains: ActionChains;
  beforeEach(() => {
    chains = watchActionChains();
  });
  afterEach(() => chains.restore());

  /** `marketStreams` on the exchange, subscribed to BTCUSDT trades for a week, then unsubscribed by the caller. */
  function week(scheduler: VirtualTimeScheduler): () => { trades: number; pings: number; opens: number; errors: string[]; maxQueued: number; teardown: string } {
    const exchange = testExchange({ scheduler, maxFrames: Infinity });
    const market = marketStreams(exchange.marketConfig());
    const errors: string[] = [];
    let trades = 0;
    let opens = 0;
    let teardown = 'not yet';
    market.errors$.subscribe((e) => errors.push(e.name));
    market.status$.subscribe((s) => (opens += s.connection.type === 'open' && s.connection.since === scheduler.now() ? 1 : 0));
    exchange.server.public('-a', { a: tradeEnvelope(tradeRecord({ v: '1' }), { first: true }) });
    exchange.server.public(`${WEEK_MS - 1}ms b`, { b: tradeEnvelope(tradeRecord({ v: '2' })) });
    const subscription: Subscription = market.trades('BTCUSDT').subscribe({ next: () => trades++, error: (e: unknown) => errors.push(String(e)) });
    scheduler.schedule(() => {
      try {
        subscription.unsubscribe();
        teardown = 'clean';
      } catch (e: unknown) {
        teardown = String(e).slice(0, 120);
      }
    }, WEEK_MS);
    const queued = sampleQueuedActions(scheduler, 3_600_000, WEEK_MS);
    return () => ({ trades, pings: exchange.sent({ kind: 'ping' }).length, opens, errors, maxQueued: queued.max(), teardown });
  }

  const expected = { trades: 2, pings: WEEK_MS / 10_000, opens: 1, errors: [], maxQueued: expect.any(Number), teardown: 'clean' };

  it('marketStreams pings every 10 s for 7 days on a VirtualTimeScheduler: no throw, no chain of actions, the teardown clean', () => {
    const scheduler = new VirtualTimeScheduler(undefined, Infinity);
    const outcome = week(scheduler);
    scheduler.flush();
    const o = outcome();
    expect(o).toEqual(expected);
    expect(o.maxQueued).toBeLessThanOrEqual(10);
    expect(scheduler.actions).toHaveLength(0);
    // on main: each ping rescheduled from the last one's work, a chain of 60 479 actions whose teardown overflowed
    expect(chains.longest()).toBeLessThanOrEqual(2);
  });

});
