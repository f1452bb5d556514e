import { VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { type ActionChains, watchActionChains } from '../helpers/actionChains';
import { expectClean, type Outcome, replayLong, tradesEvery } from '../helpers/longReplay';

describe('replayMarket over long recordings', () => {
  let chains: ActionChains;
  beforeEach(() => {
    chains = watchActionChains();
  });
  afterEach(() => chains.restore());

  const week = tradesEvery(60_000, 7); // sparse: a trade a minute, a week

  it('replays 7 days of a sparse recording on a VirtualTimeScheduler: every trade, a clean end, no growth', () => {
    const scheduler = new VirtualTimeScheduler(undefined, Infinity);
    const outcome = replayLong(scheduler, week.recording, 7);
    scheduler.flush();
    expectClean(outcome(), week.frames, 7, chains);
    expect(scheduler.actions).toHaveLength(0);
  });

  it('replays 7 days of a sparse recording in a TestScheduler run', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    let outcome: (() => Outcome) | undefined;
    testScheduler.run(() => {
      outcome = replayLong(testScheduler, week.recording, 7);
    });
    expectClean(outcome!(), week.frames, 7, chains);
  });
});
