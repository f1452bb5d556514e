import { Observable, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { HeartbeatTimeoutError } from '../../lib/errors';
import { silenceWatchdog, type StallGrace } from '../../lib/socket/silenceWatchdog';
import { watchActionChains } from '../helpers/actionChains';
import { stallClock } from '../helpers/stallClock';

describe('silenceWatchdog', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('errors with HeartbeatTimeoutError after timeoutMs of silence', () => {
    testScheduler.run(({ expectObservable }) => {
      expectObservable(silenceWatchdog(30, () => 0, testScheduler)).toBe('30ms #', undefined, new HeartbeatTimeoutError(30));
    });
  });

  it('re-arms for the rest of the window when something was seen meanwhile', () => {
    testScheduler.run(({ expectObservable }) => {
      let lastSeenAt = 0;
      testScheduler.schedule(() => (lastSeenAt = 20), 20);
      testScheduler.schedule(() => (lastSeenAt = 45), 45);
      // checks at 30 (silent 10: wait 20 more), 50 (silent 5: wait 25 more), 75 (silent 30: error).
      expectObservable(silenceWatchdog(30, () => lastSeenAt, testScheduler)).toBe('75ms #', undefined, new HeartbeatTimeoutError(30));
    });
  });

  it('counts a silence that began before the watch started: the first check comes when it reaches timeoutMs', () => {
    testScheduler.run(({ expectObservable }) => {
      // last seen at 0, the watch starts at 20: it fires at 30, not at 20 + 30
      const late$ = new Observable<never>((subscriber) => testScheduler.schedule(() => silenceWatchdog(30, () => 0, testScheduler).subscribe(subscriber), 20));
      expectObservable(late$).toBe('30ms #', undefined, new HeartbeatTimeoutError(30));
    });
  });

  it('never fires while frames keep coming, and stops on unsubscribe', () => {
    testScheduler.run(({ expectObservable }) => {
      const watchdog = silenceWatchdog(30, () => testScheduler.now(), testScheduler);
      expectObservable(watchdog, '^ 500ms !').toBe('');
    });
  });

  it('reports how long the stream was silent', () => {
    testScheduler.run(() => {
      const errors: unknown[] = [];
      silenceWatchdog(10, () => -5, testScheduler).subscribe({ error: (e: unknown) => errors.push(e) });
      testScheduler.schedule(() => silenceWatchdog(10, () => -5, testScheduler).subscribe({ error: (e: unknown) => errors.push(e) }), 30);
      testScheduler.flush();
      expect(errors).toHaveLength(2);
      expect(errors[0]).toBeInstanceOf(HeartbeatTimeoutError);
      expect((errors[0] as HeartbeatTimeoutError).silentForMs).toBe(10);
      expect((errors[1] as HeartbeatTimeoutError).silentForMs).toBe(35); // already silent too long when the watch starts: at once
    });
  });

  describe('across a stall of the process (stall: grace 10, tolerance 1)', () => {
    const grace: StallGrace = { graceMs: 10, toleranceMs: 1 };

    it('without stall settings (staleness watches): a late check errors at once, as before', () => {
      testScheduler.run(({ expectObservable }) => {
        // last seen 0, due 30; the process stalls from 20 to 45: the check runs at its frame 30 reading 45
        expectObservable(silenceWatchdog(30, () => 0, stallClock(testScheduler, 20, 25))).toBe('30ms #', undefined, new HeartbeatTimeoutError(45));
      });
    });

    it('defers the verdict of a check that ran late by graceMs, then errors if nothing came', () => {
      testScheduler.run(({ expectObservable }) => {
        // the check due at 30 reads 35 (5 late): deferred by 10, to 40
        expectObservable(silenceWatchdog(30, () => 0, stallClock(testScheduler, 20, 15), grace)).toBe('40ms #', undefined, new HeartbeatTimeoutError(40));
      });
    });

    it('keeps watching when a frame came in the grace (a live peer), and finds the next silence on time', () => {
      testScheduler.run(({ expectObservable }) => {
        let lastSeenAt = 0;
        testScheduler.schedule(() => (lastSeenAt = 36), 36); // read after the stall
        // checks at 30 (reads 35: deferred), 40 (silent 4: wait 26), 66 (silent 30, on time: error)
        expectObservable(silenceWatchdog(30, () => lastSeenAt, stallClock(testScheduler, 20, 15), grace)).toBe('66ms #', undefined, new HeartbeatTimeoutError(30));
      });
    });

    it('defers once per silence: a process that keeps stalling still gets the verdict after one grace', () => {
      testScheduler.run(({ expectObservable }) => {
        const stalledAt = (): number => testScheduler.now(); // a stall ends at every moment
        expectObservable(silenceWatchdog(30, () => 0, testScheduler, { ...grace, stalledAt })).toBe('40ms #', undefined, new HeartbeatTimeoutError(40));
      });
    });

    it('defers on a stall another timer saw (stalledAt within graceMs) even when the check itself is on time', () => {
      testScheduler.run(({ expectObservable }) => {
        // the pings saw a stall end at 28; the check at 30 is on time: deferred to 28 + 10
        const stalledAt = (): number | undefined => (testScheduler.now() >= 28 ? 28 : undefined);
        expectObservable(silenceWatchdog(30, () => 0, testScheduler, { ...grace, stalledAt })).toBe('38ms #', undefined, new HeartbeatTimeoutError(38));
        // a stall longer ago than graceMs defers nothing
        expectObservable(silenceWatchdog(30, () => 0, testScheduler, { ...grace, stalledAt: () => 19 })).toBe('30ms #', undefined, new HeartbeatTimeoutError(30));
      });
    });

    it('a check late by no more than toleranceMs is on time', () => {
      testScheduler.run(({ expectObservable }) => {
        expectObservable(silenceWatchdog(30, () => 0, stallClock(testScheduler, 29, 2), grace)).toBe('30ms #', undefined, new HeartbeatTimeoutError(31));
      });
    });
  });
  it('re-arms with a fresh action each time: a watch of a week in virtual time holds one, and its teardown is clean', () => {
    const chains = watchActionChains();
    try {
      const scheduler = new VirtualTimeScheduler(undefined, 7 * 86_400_000);
      // a frame every 10 s: the 30 s watch re-arms every 20-30 s, ~24 000 times a week
      let lastSeenAt = 0;
      const frames = (): void => {
        lastSeenAt = scheduler.now();
        scheduler.schedule(frames, 10_000);
      };
      scheduler.schedule(frames, 10_000);
      let failed: unknown;
      const watch = silenceWatchdog(30_000, () => lastSeenAt, scheduler).subscribe({ error: (e: unknown) => (failed = e) });
      scheduler.flush();
      expect(failed).toBeUndefined();
      // on main: one action added to the last per re-arm; unsubscribing the first recursed through them all
      expect(() => watch.unsubscribe()).not.toThrow();
      expect(chains.longest()).toBe(0);
    } finally {
      chains.restore();
    }
  });
});
