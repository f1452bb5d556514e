import { RecentKeys } from '../../../lib/internal/recentKeys';
import { rememberPrivateEvent } from '../../../lib/user/internal/rememberPrivateEvent';
import { account, report, ticket } from '../fixtures';

describe('rememberPrivateEvent', () => {
  it('drops a second execution report with the same (i, X, z, U), whatever its other fields', () => {
    const seen = new RecentKeys(60_000, 100);
    expect(rememberPrivateEvent(seen, report({ i: '1', X: 'NEW', z: '0', U: 5, E: 5 }), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, report({ i: '1', X: 'NEW', z: '0', U: 5, E: 6, p: '2' }), 1)).toBe(false);
  });

  it('keeps reports that differ in any part of the key (status text equal but fresh strings included)', () => {
    const seen = new RecentKeys(60_000, 100);
    expect(rememberPrivateEvent(seen, report({ i: '1', X: 'NEW', z: '0', U: 5 }), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, report({ i: '2', X: 'NEW', z: '0', U: 5 }), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, report({ i: '1', X: 'FILLED', z: '0', U: 5 }), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, report({ i: '1', X: 'NEW', z: '0.5', U: 5 }), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, report({ i: '1', X: 'NEW', z: '0', U: 6 }), 0)).toBe(true);
    const fresh = ['F', 'ILLED'].join('');
    expect(rememberPrivateEvent(seen, report({ i: '1', X: fresh as 'FILLED', z: '0', U: 5 }), 0)).toBe(false);
  });

  it('uses E when U is absent, and the key string for other events', () => {
    const seen = new RecentKeys(60_000, 100);
    const { U: _, ...noU } = report({ i: '1', E: 7 });
    expect(rememberPrivateEvent(seen, noU, 0)).toBe(true);
    expect(rememberPrivateEvent(seen, report({ i: '1', U: 7, E: 9 }), 0)).toBe(false);
    expect(rememberPrivateEvent(seen, ticket('t1'), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, ticket('t1'), 0)).toBe(false);
    expect(rememberPrivateEvent(seen, account(5, [['USDT', '1', '0']]), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, account(5, [['USDT', '1', '0']]), 0)).toBe(false);
  });

  it('forgets a key after the window', () => {
    const seen = new RecentKeys(100, 100);
    expect(rememberPrivateEvent(seen, report({ i: '1', U: 5 }), 0)).toBe(true);
    expect(rememberPrivateEvent(seen, report({ i: '1', U: 5 }), 100)).toBe(true);
  });
});
