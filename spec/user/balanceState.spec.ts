import { applyAccountUpdate, applyBalanceSnapshot, type BalanceState } from '../../lib/user/balanceState';
import type { DecimalText } from '../../lib/decimal';
import type { OutboundAccountInfo } from '../../lib/codecs/outboundAccountInfo';

/** A decoded account update (no import of the user-stream fixtures: this spec needs only the folds). */
const account = (E: number, balances: ReadonlyArray<readonly [string, DecimalText, DecimalText]>): OutboundAccountInfo => ({
  e: 'outboundAccountInfo',
  E,
  B: balances.map(([a, f, l]) => ({ a, f, l })),
});

const balance = (asset: string, free: DecimalText, locked: DecimalText, eventTime: number): BalanceState => ({ asset, free, locked, eventTime });
const mapOf = (...bs: BalanceState[]): ReadonlyMap<string, BalanceState> => new Map(bs.map((b) => [b.asset, b]));

describe('applyAccountUpdate', () => {
  it('adds the assets of an update, stamped with its E', () => {
    const next = applyAccountUpdate(new Map(), account(10, [['BTC', '1', '0.5'], ['USDT', '100', '0']]));
    expect([...next.values()]).toEqual([balance('BTC', '1', '0.5', 10), balance('USDT', '100', '0', 10)]);
  });

  it('replaces a balance with a newer one and keeps the assets the update does not list', () => {
    const before = mapOf(balance('BTC', '1', '0', 10), balance('ETH', '2', '0', 10));
    const next = applyAccountUpdate(before, account(20, [['BTC', '0.5', '0.5']]));
    expect(next.get('BTC')).toEqual(balance('BTC', '0.5', '0.5', 20));
    expect(next.get('ETH')).toBe(before.get('ETH'));
  });

  it('lets the later arrival win at equal E', () => {
    const before = mapOf(balance('BTC', '1', '0', 10));
    expect(applyAccountUpdate(before, account(10, [['BTC', '0.9', '0.1']])).get('BTC')).toEqual(balance('BTC', '0.9', '0.1', 10));
  });

  it('returns the same map for an older update', () => {
    const before = mapOf(balance('BTC', '1', '0', 10));
    expect(applyAccountUpdate(before, account(9, [['BTC', '5', '5']]))).toBe(before);
  });

  it('returns the same map when the amounts are equal as decimals at the same E', () => {
    const before = mapOf(balance('BTC', '1.50', '0', 10));
    expect(applyAccountUpdate(before, account(10, [['BTC', '1.5', '0.000']]))).toBe(before);
  });

  it('moves eventTime forward on a newer update with the same amounts, so an older one arriving later loses', () => {
    const before = mapOf(balance('BTC', '0', '0', 45));
    const confirmed = applyAccountUpdate(before, account(59, [['BTC', '0', '0']]));
    expect(confirmed.get('BTC')?.eventTime).toBe(59);
    // the push of E 52 (BTC 1), read after the one of E 59: stale
    expect(applyAccountUpdate(confirmed, account(52, [['BTC', '1', '0']]))).toBe(confirmed);
  });

  it('never changes the map it is given', () => {
    const before = mapOf(balance('BTC', '1', '0', 10));
    applyAccountUpdate(before, account(20, [['BTC', '2', '0'], ['ETH', '1', '0']]));
    expect([...before.values()]).toEqual([balance('BTC', '1', '0', 10)]);
  });

  it('applies the entries of one update in order (the last one of an asset wins)', () => {
    const next = applyAccountUpdate(new Map(), account(10, [['BTC', '1', '0'], ['BTC', '2', '0']]));
    expect(next.get('BTC')).toEqual(balance('BTC', '2', '0', 10));
  });
});

describe('applyBalanceSnapshot', () => {
  it('takes the snapshot for every asset not newer than it, stamped with its time', () => {
    const before = mapOf(balance('BTC', '1', '0', 10));
    const next = applyBalanceSnapshot(before, [{ asset: 'BTC', free: '3', locked: '1' }, { asset: 'USDT', free: '50', locked: '0' }], 15);
    expect([...next.values()]).toEqual([balance('BTC', '3', '1', 15), balance('USDT', '50', '0', 15)]);
  });

  it('takes the snapshot over a balance at exactly its time', () => {
    const next = applyBalanceSnapshot(mapOf(balance('BTC', '1', '0', 15)), [{ asset: 'BTC', free: '2', locked: '0' }], 15);
    expect(next.get('BTC')).toEqual(balance('BTC', '2', '0', 15));
  });

  it('keeps a balance pushed after the snapshot', () => {
    const pushed = balance('BTC', '1', '0', 20);
    expect(applyBalanceSnapshot(mapOf(pushed), [{ asset: 'BTC', free: '9', locked: '9' }], 15).get('BTC')).toBe(pushed);
  });

  it('sets an asset the snapshot does not list to zero, unless it was pushed after it', () => {
    const before = mapOf(balance('ETH', '2', '1', 10), balance('SOL', '4', '0', 30));
    const next = applyBalanceSnapshot(before, [], 15);
    expect(next.get('ETH')).toEqual(balance('ETH', '0', '0', 15));
    expect(next.get('SOL')).toEqual(balance('SOL', '4', '0', 30));
  });

  it('always returns a new map and leaves the given one as it was', () => {
    const before = mapOf(balance('BTC', '1', '0', 20));
    const next = applyBalanceSnapshot(before, [], 15);
    expect(next).not.toBe(before);
    expect(next).toEqual(before);
  });

  it('a push older than the snapshot arriving after it is ignored; a newer one wins', () => {
    const snapped = applyBalanceSnapshot(new Map(), [{ asset: 'BTC', free: '3', locked: '0' }], 15);
    expect(applyAccountUpdate(snapped, account(14, [['BTC', '1', '0']]))).toBe(snapped);
    expect(applyAccountUpdate(snapped, account(16, [['BTC', '1', '0']])).get('BTC')).toEqual(balance('BTC', '1', '0', 16));
  });
});
