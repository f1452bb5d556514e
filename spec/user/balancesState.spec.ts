import fc from 'fast-check';
import { from, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { DecimalText } from '../../lib/decimal';
import type { OutboundAccountInfo } from '../../lib/codecs/outboundAccountInfo';
import { balancesState, type BalancesState } from '../../lib/user/balancesState';
import { applyAccountUpdate, applyBalanceSnapshot, type BalanceState } from '../../lib/user/balanceState';
import { account } from './fixtures';

const view = (m: BalancesState): Record<string, string> =>
  Object.fromEntries([...m].map(([a, b]) => [a, `${b.free}/${b.locked}@${b.eventTime}`]));

describe('balancesState', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('keeps the latest balance of every asset listed in the updates', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-|', {
        a: account(1, [['BTC', '1', '0'], ['USDT', '100', '0']]),
        b: account(2, [['BTC', '0.5', '0.5']]),
        c: account(3, [['USDT', '90.5', '9.5']]),
      });
      expectObservable(source.pipe(balancesState(), map(view))).toBe('-x-y-z-|', {
        x: { BTC: '1/0@1', USDT: '100/0@1' },
        y: { BTC: '0.5/0.5@2', USDT: '100/0@1' },
        z: { BTC: '0.5/0.5@2', USDT: '90.5/9.5@3' },
      });
      expectSubscriptions(source.subscriptions).toBe('^------!');
    });
  });

  it('ignores an update older than the one applied for that asset, per asset', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-|', {
        a: account(5, [['BTC', '1', '0']]),
        b: account(4, [['BTC', '9', '0']]),
        c: account(4, [['BTC', '9', '0'], ['ETH', '2', '0']]),
      });
      expectObservable(source.pipe(balancesState(), map(view))).toBe('-x---y-|', {
        x: { BTC: '1/0@5' },
        y: { BTC: '1/0@5', ETH: '2/0@4' },
      });
    });
  });

  it('emits nothing for duplicates or an empty balance list', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const a = account(5, [['BTC', '1', '0']]);
      const source = cold('-e-a-a-|', { a, e: account(1, []) });
      expectObservable(source.pipe(balancesState(), map(view))).toBe('---x---|', { x: { BTC: '1/0@5' } });
    });
  });

  it('lets the later arrival win at equal E (events of one operation share E)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-b-|', {
        a: account(7, [['USDT', '10', '5']]),
        b: account(7, [['USDT', '10', '2']]),
      });
      expectObservable(source.pipe(balancesState(), map(view))).toBe('-x-y-|', {
        x: { USDT: '10/5@7' },
        y: { USDT: '10/2@7' },
      });
    });
  });

  it('reaches the same final state whatever the arrival order, for distinct times (property)', () => {
    const amount = fc.integer({ min: 0, max: 10 ** 9 }).map((n) => (n / 1000).toFixed(3));
    const update = fc
      .record({
        E: fc.integer({ min: 1, max: 10 ** 6 }),
        B: fc.uniqueArray(fc.tuple(fc.constantFrom('BTC', 'ETH', 'USDT'), amount, amount), {
          maxLength: 3,
          selector: ([a]) => a,
        }),
      })
      .map(({ E, B }) => account(E, B));
    fc.assert(
      fc.property(fc.uniqueArray(update, { maxLength: 20, selector: (u) => u.E }), fc.array(fc.nat(), { minLength: 20, maxLength: 20 }), (updates, keys) => {
        const inOrder = [...updates].sort((a, b) => a.E - b.E);
        const shuffled = updates.map((u, j) => ({ u, k: keys[j]! })).sort((a, b) => a.k - b.k).map(({ u }) => u);
        expect(finalState(shuffled)).toEqual(finalState(inOrder));
      }),
    );
  });
});

function finalState(updates: readonly OutboundAccountInfo[]): BalancesState {
  let last: BalancesState = new Map();
  from(updates).pipe(balancesState()).subscribe((m) => (last = m));
  return last;
}

describe('applyBalanceSnapshot', () => {
  const b = (asset: string, free: DecimalText, locked: DecimalText, eventTime: number): BalanceState => ({ asset, free, locked, eventTime });
  it('takes the snapshot for balances not newer than it, zeroes unlisted assets, keeps balances pushed after it', () => {
    const before = new Map([
      ['BTC', b('BTC', '1', '0', 90)],
      ['ETH', b('ETH', '5', '0', 110)], // pushed after the snapshot's time: stays
      ['SOL', b('SOL', '3', '1', 100)], // not listed, not newer: zero
    ]);
    const after = applyBalanceSnapshot(before, [{ asset: 'BTC', free: '2', locked: '0.5' }, { asset: 'ETH', free: '4', locked: '0' }, { asset: 'USDT', free: '10', locked: '0' }], 100);
    expect(after).toEqual(
      new Map([
        ['BTC', b('BTC', '2', '0.5', 100)],
        ['ETH', b('ETH', '5', '0', 110)],
        ['SOL', b('SOL', '0', '0', 100)],
        ['USDT', b('USDT', '10', '0', 100)],
      ]),
    );
    expect(before.get('BTC')!.free).toBe('1'); // a new map
    // afterwards a push older than the snapshot changes nothing, one at its time or later does
    expect(applyAccountUpdate(after, account(99, [['BTC', '7', '0']]))).toBe(after);
    expect(applyAccountUpdate(after, account(100, [['BTC', '7', '0']])).get('BTC')!.free).toBe('7');
  });
});
