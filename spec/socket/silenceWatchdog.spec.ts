import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { HeartbeatTimeoutError } from '../../lib/errors';
import { silenceWatchdog } from '../../lib/socket/silenceWatchdog';

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
});
