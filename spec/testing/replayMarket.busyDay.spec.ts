import { VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { type ActionChains, watchActionChains } from '../helpers/actionChains';
import { expectClean, type Outcome, replayLong, tradesEvery } from '../helpers/longReplay';

// In the slow group (jest.config.js SLOW_FILES): ~10 s a test on the 2-core machine.
describe('replayMarket over a busy day', () => {
  let chains: ActionChains;
  beforeEach(() => {
    chains = watchActionChains();
  });
  afterEach(() => chains.restore());

  const busyDay = tradesEvery(250, 1); // busy: four trade frames a second, a day (345 599 frames)

  it('replays a day of a busy recording on a VirtualTimeScheduler', () => {
    const scheduler = new VirtualTimeScheduler(undefined, Infinity);
    const outcome = replayLong(scheduler, busyDay.recording, 1);
    scheduler.flush();
    expectClean(outcome(), busyDay.frames, 1, chains);
  });

  it('replays a day of a busy recording in a TestScheduler run', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    let outcome: (() => Outcome) | undefined;
    testScheduler.run(() => {
      outcome = replayLong(testScheduler, busyDay.recording, 1);
    });
    expectClean(outcome!(), busyDay.frames, 1, chains);
  });
});
