import { privateEventKey } from '../../lib/user/privateEventKey';
import { account, report, ticket } from './fixtures';

describe('privateEventKey', () => {
  it('keys an execution report by order id, status, filled quantity and update time (E without U)', () => {
    const base = report({ i: '1470000001', X: 'PARTIALLY_FILLED', z: '0.5', U: 1700000000123, E: 1700000000200 });
    expect(privateEventKey(base)).toBe('er:1470000001:PARTIALLY_FILLED:0.5:1700000000123');
    const { U: _dropped, ...withoutU } = base;
    expect(privateEventKey(withoutU)).toBe('er:1470000001:PARTIALLY_FILLED:0.5:1700000000200');
    expect(privateEventKey(report({ ...base, z: '0.6' }))).not.toBe(privateEventKey(base));
    expect(privateEventKey(report({ ...base, X: 'FILLED' }))).not.toBe(privateEventKey(base));
  });

  it('keys a ticket by its id alone', () => {
    expect(privateEventKey(ticket('9007199254740993'))).toBe('tk:9007199254740993');
    expect(privateEventKey(ticket('9007199254740993', { E: 5 }))).toBe(privateEventKey(ticket('9007199254740993', { E: 6 })));
  });

  it('keys an account update by event time and every balance, so two updates at one time are both kept', () => {
    const one = account(10, [['BTC', '1', '0'], ['USDT', '5', '2']]);
    expect(privateEventKey(one)).toBe('ac:10:BTC=1/0,USDT=5/2');
    expect(privateEventKey(account(10, [['BTC', '1', '0']]))).not.toBe(privateEventKey(one));
    expect(privateEventKey(account(10, []))).toBe('ac:10:');
  });
});
