import fc from 'fast-check';
import type { OrderStatus } from '../../../lib/codecs/executionReport';
import { RecentKeys } from '../../../lib/internal/recentKeys';
import { rememberPrivateEvent } from '../../../lib/user/internal/rememberPrivateEvent';
import { privateEventKey } from '../../../lib/user/privateEventKey';
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

  it('drops exactly what the key string would drop: plain text coded as numbers, other text as the string, never mixed up', () => {
    // Ids from short to past 28 characters (the two coded halves), z plain or not, U present or not.
    const id = fc.oneof(fc.constantFrom('1', '10', '01', '1920153487203598336', '19201534872035983361', '1'.repeat(28), '1'.repeat(29), 'a1', ''), fc.stringMatching(/^[0-9]{1,30}$/));
    const z = fc.constantFrom('0', '0.0', '0.00012300', '1e-7', '-0.5', '12345.12345678', '12345.123456789', '0.1', '0.10');
    const status = fc.constantFrom<OrderStatus>('NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED');
    const time = fc.constantFrom(0, 5, 1_731_300_000_000, 2 ** 53 - 1);
    const event = fc.record({ i: id, z, X: status, U: fc.option(time, { nil: undefined }), E: time }).map(({ U, ...rest }) => {
      const r = report(rest);
      if (U !== undefined) return { ...r, U };
      const { U: _, ...noU } = r;
      return noU;
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const seen = new RecentKeys(60_000, 1000);
        const model = new Set<string>();
        for (const e of events) {
          const key = privateEventKey(e);
          expect(rememberPrivateEvent(seen, e, 0)).toBe(!model.has(key));
          model.add(key);
        }
      }),
      { numRuns: 500 },
    );
  });
});
