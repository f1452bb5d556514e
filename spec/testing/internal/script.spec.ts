import { TestScheduler } from 'rxjs/testing';
import { parseScript as parse } from '../../../lib/testing/internal/script';

/** As the test exchange calls it: inside a run (one frame per ms). */
const parseScript = (...args: Parameters<typeof parse>): ReturnType<typeof parse> =>
  new TestScheduler(() => undefined).run(() => parse(...args));

describe('parseScript', () => {
  it('turns values into sends and the error marble into a close, in time-progression syntax', () => {
    expect(parseScript('-a 5ms b #', { a: 1, b: { x: 2 } }, { code: 4000, reason: 'bye' })).toEqual([
      { frame: 1, type: 'send', value: 1 },
      { frame: 7, type: 'send', value: { x: 2 } },
      { frame: 8, type: 'close', close: { code: 4000, reason: 'bye' } },
    ]);
  });

  it('sends the marble character itself without values, and ignores completion', () => {
    expect(parseScript('(ab)|', undefined, {})).toEqual([
      { frame: 0, type: 'send', value: 'a' },
      { frame: 0, type: 'send', value: 'b' },
    ]);
  });

  it('drops what comes before the subscription point', () => {
    expect(parseScript('a-^-b', { a: 'early', b: 'late' }, {})).toEqual([{ frame: 2, type: 'send', value: 'late' }]);
  });

  it('gives no step for an empty script', () => {
    expect(parseScript('', undefined, {})).toEqual([]);
    expect(parseScript('---', undefined, {})).toEqual([]);
  });
});
