import { type Observable, Subject, Subscription, take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { PrivateEvent } from '../../../lib/codecs/privateEvents';
import { ConnectionClosedError } from '../../../lib/errors';
import { ticketInfo } from '../../../lib/testing/privateMessages';
import type { UserItem } from '../../../lib/user/internal/items';
import { type UserCore, UserOutputs } from '../../../lib/user/internal/userOutputs';

/** What the specs' cores emit: an event (tagged here only, to write marbles) or an item. */
type CoreItem = PrivateEvent | UserItem;
const isEvent = (v: CoreItem): v is PrivateEvent => 'e' in v;
/** A core that replays `source` to the sink: events on the event channel, items on the item channel. */
const coreOf =
  (source: Observable<CoreItem>): UserCore =>
  (sink) =>
    source.subscribe({
      next: (v) => (isEvent(v) ? sink.event(v) : sink.item(v)),
      error: (e: unknown) => sink.error(e),
      complete: () => sink.complete(),
    });
class ItemHub extends UserOutputs {
  constructor(source: Observable<CoreItem>) {
    super(coreOf(source));
  }
}

const ev = (E: number, extra: Record<string, unknown> = {}): PrivateEvent =>
  ({ ...ticketInfo({ E, s: 'X', q: '1', t: E, p: '1', T: String(E), o: '1' }), ...extra }) as PrivateEvent;
const err = (n: number): CoreItem => ({ type: 'error', error: new Error(`e${n}`) });

describe('UserOutputs', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('shares one subscription of the source and sends each item to the subscribers of its kind only', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = ev(1);
      const b = ev(2, { type: 'error', error: 'not an item' }); // an event with an extra `type` field stays an event
      const x = err(1);
      const source = cold<CoreItem>('-a-x-b-|', { a, x, b });
      const hub = new ItemHub(source);
      expectObservable(hub.events$()).toBe('-a---b-|', { a, b });
      expectObservable(hub.pick('error', (i) => i.error.message)).toBe('---x---|', { x: 'e1' });
      expectObservable(hub.pick('status', (i) => i.status)).toBe('-------|');
      expectSubscriptions(source.subscriptions).toBe('^------!');
    });
  });

  it('disconnects when the last subscriber leaves and connects afresh for the next one', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<CoreItem>('-a-b-c-d', { a: ev(1), b: ev(2), c: ev(3), d: ev(4) });
      const hub = new ItemHub(source);
      expectObservable(hub.events$(), '^--!').toBe('-a-', { a: ev(1) });
      expectObservable(hub.events$(), '-^----!').toBe('-a-b-c', { a: ev(1), b: ev(2), c: ev(3) });
      expectObservable(hub.events$(), '--------^--!').toBe('---------a-', { a: ev(1) });
      expectSubscriptions(source.subscriptions).toBe(['^-----!', '--------^--!']);
    });
  });

  it('errors and completes every subscriber, then reconnects for a new one (share() defaults)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failure = new ConnectionClosedError(1006, '', false);
      const source = cold<CoreItem>('-a-#', { a: ev(1) }, failure);
      const hub = new ItemHub(source);
      expectObservable(hub.events$()).toBe('-a-#', { a: ev(1) }, failure);
      expectObservable(hub.pick('gap', (i) => i.gap)).toBe('---#', undefined, failure);
      expectObservable(hub.events$(), '-----^').toBe('------a-#', { a: ev(1) }, failure);
      expectSubscriptions(source.subscriptions).toBe(['^--!', '-----^--!']);
    });
  });

  it('passive subscribers observe without connecting, stay across connections, and are told of the end with items', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failure = new ConnectionClosedError(4003, 'bye', true);
      const status = (epoch: number): CoreItem => ({ type: 'status', status: { type: 'open', epoch, since: epoch } });
      const source = cold<CoreItem>('-s-x-#', { s: status(1), x: err(1) }, failure);
      const hub = new ItemHub(source);
      const statuses = hub.pick('status', (i) => `${i.status.type}${i.status.epoch}${i.status.type === 'closed' && i.status.cause ? '!' : ''}`, true);
      const errors = hub.pick('error', (i) => i.error.message, true);
      expectObservable(statuses, '^ 30ms !').toBe('---a---b--c-d', { a: 'open1', b: 'closed1!', c: 'open1', d: 'closed1' });
      expectObservable(errors, '^ 30ms !').toBe('-----a-b', { a: 'e1', b: failure.message });
      // nothing connects before 2; the active subscriber errors (once), the passive ones do not
      expectObservable(hub.events$(), '--^').toBe('-------#', undefined, failure);
      expectObservable(hub.events$(), '---------^--!').toBe('');
      expectSubscriptions(source.subscriptions).toBe(['--^----!', '---------^--!']);
    });
  });

  it('gives a subscriber added during an emission the next item, not the current one', () => {
    const source = new Subject<CoreItem>();
    const hub = new ItemHub(source);
    const late: PrivateEvent[] = [];
    const early: PrivateEvent[] = [];
    hub.events$().subscribe((e) => {
      early.push(e);
      if (e.E === 1) hub.events$().subscribe((l) => late.push(l));
    });
    source.next(ev(1));
    source.next(ev(2));
    expect(early.map((e) => e.E)).toEqual([1, 2]);
    expect(late.map((e) => e.E)).toEqual([2]);
    expect(source.observed).toBe(true);
  });

  it('stops sending to a subscriber that leaves during an emission', () => {
    const source = new Subject<CoreItem>();
    const hub = new ItemHub(source);
    const second: number[] = [];
    const first = hub.events$().subscribe(() => {
      first.unsubscribe();
      secondSub.unsubscribe();
    });
    const secondSub = hub.events$().subscribe((e) => second.push(e.E!));
    source.next(ev(1));
    expect(second).toEqual([]);
    expect(source.observed).toBe(false);
  });

  it('sends each event to the subscribers of every event and to those of its kind (e) only', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const t = ev(1);
      const r = ev(2, { e: 'executionReport' });
      const source = cold<CoreItem>('-t-r-|', { t, r });
      const hub = new ItemHub(source);
      expectObservable(hub.events$()).toBe('-t-r-|', { t, r });
      expectObservable(hub.events$('executionReport')).toBe('---r-|', { r });
      expectObservable(hub.events$('ticketInfo')).toBe('-t---|', { t });
      expectObservable(hub.events$('outboundAccountInfo')).toBe('-----|');
    });
  });

  it('says whether anyone listens to a type of item now', () => {
    const hub = new ItemHub(new Subject<CoreItem>());
    expect(hub.listening('orders')).toBe(false);
    const orders = hub.pick('orders', (i) => i.orders).subscribe();
    const gaps = hub.pick('gap', (i) => i.gap, true).subscribe();
    expect([hub.listening('orders'), hub.listening('gap'), hub.listening('balances')]).toEqual([true, true, false]);
    orders.unsubscribe();
    gaps.unsubscribe();
    expect([hub.listening('orders'), hub.listening('gap')]).toEqual([false, false]);
  });

  it('stops a synchronous endless core when take(n) downstream has its values, as share() does', () => {
    let started = 0;
    let stopped = 0;
    let written = 0;
    const outputs = new UserOutputs((sink) => {
      started += 1;
      // Writes until told to stop: without share()'s early unsubscription this never returns.
      while (!sink.closed && written < 1_000_000) sink.event(ev(++written));
      return new Subscription(() => (stopped += 1));
    });
    const seen: number[] = [];
    let completed = false;
    outputs.events$().pipe(take(3)).subscribe({ next: (e) => seen.push(e.E!), complete: () => (completed = true) });
    expect(seen).toEqual([1, 2, 3]);
    expect(completed).toBe(true);
    expect([written, started, stopped]).toEqual([3, 1, 1]);
  });

  it('starts a fresh run for a subscriber after the last run completed', () => {
    let started = 0;
    const outputs = new UserOutputs((sink) => {
      started += 1;
      sink.event(ev(started));
      sink.complete();
      return new Subscription();
    });
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) outputs.events$().subscribe({ next: (e) => seen.push(`E${e.E}`), complete: () => seen.push('|') });
    expect(seen).toEqual(['E1', '|', 'E2', '|']);
    expect(started).toBe(2);
  });

  it('stops the run when the core errors, and takes nothing from the sink after the end', () => {
    const stopped: string[] = [];
    let write: ((v: string) => void) | undefined;
    const outputs = new UserOutputs((sink) => {
      write = (v) => (v === '#' ? sink.error(new Error('boom')) : sink.item({ type: 'error', error: new Error(v) }));
      const run = new Subject<never>().subscribe();
      run.add(() => stopped.push('stopped'));
      return run;
    });
    const seen: string[] = [];
    outputs.pick('error', (i) => i.error.message).subscribe({ next: (m) => seen.push(m), error: (e: Error) => seen.push(`!${e.message}`) });
    write!('a');
    write!('#');
    write!('b');
    expect(seen).toEqual(['a', '!boom']);
    expect(stopped).toEqual(['stopped']);
  });
});
