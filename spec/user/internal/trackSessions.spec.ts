import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { SessionItem, UserItem } from '../../../lib/user/internal/items';
import type { FrameClock } from '../../../lib/user/internal/keySession';
import { trackSessions } from '../../../lib/user/internal/trackSessions';

const open = (epoch: number, since: number): SessionItem => ({ type: 'status', status: { type: 'open', epoch, since } });
const lost = (epoch: number): SessionItem => ({ type: 'status', status: { type: 'reconnecting', epoch, attempt: 1, delayMs: 1, cause: new Error('lost') } });
const show = (i: UserItem): string =>
  i.type === 'gap' ? `gap${i.gap.epoch}:${i.gap.downSince}-${i.gap.reconnectedAt}${i.gap.keyChanged ? 'k' : ''}` : i.type === 'status' ? `${i.status.type}${i.status.epoch}` : i.type;

describe('trackSessions', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('renumbers epochs across key sessions and emits a gap before every open after the first', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const clock: FrameClock = { lastFrameAt: undefined };
      const items = cold<SessionItem>('a-b-c-d-e', {
        a: { type: 'start', keyChanged: false },
        b: open(1, 2),
        c: lost(1),
        d: { type: 'start', keyChanged: true },
        e: open(1, 8),
      });
      const out = items.pipe(trackSessions(testScheduler, clock));
      expectObservable(out.pipe(map(show))).toBe(
        '--b-c---(fg)',
        { b: 'open1', c: 'reconnecting1', f: 'gap2:2-8k', g: 'open2' },
      );
    });
  });

  it('starts a gap at the last frame received on the lost socket, and passes errors on', () => {
    testScheduler.run(({ cold }) => {
      const clock: FrameClock = { lastFrameAt: undefined };
      const items = cold<SessionItem>('a-b-c-d', {
        a: open(1, 0),
        b: { type: 'error', error: new Error('x') },
        c: lost(1),
        d: open(2, 6),
      });
      testScheduler.schedule(() => (clock.lastFrameAt = 3), 3);
      const out = items.pipe(trackSessions(testScheduler, clock));
      const shown: string[] = [];
      out.subscribe((i) => shown.push(show(i)));
      testScheduler.flush();
      expect(shown).toEqual(['open1', 'error', 'reconnecting1', 'gap2:3-6', 'open2']);
    });
  });
});
