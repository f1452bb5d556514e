import { Account, DEFAULT_BALANCES } from '../../lib/simulator/orders/account';
import { parseDecimal } from '../../lib/decimal/fixed';

const d = (text: string): bigint => parseDecimal(text) ?? -1n;

describe('Account', () => {
  it('starts from the given amounts, all free; an unknown asset is zero', () => {
    const account = new Account({ USDT: '1000.5', BTC: '2' });
    expect(account.of('USDT')).toEqual({ free: d('1000.5'), locked: 0n });
    expect(account.of('BTC')).toEqual({ free: d('2'), locked: 0n });
    expect(account.of('DOGE')).toEqual({ free: 0n, locked: 0n });
  });

  it('reads an unparsable starting amount as zero', () => {
    expect(new Account({ USDT: 'lots' }).of('USDT')).toEqual({ free: 0n, locked: 0n });
  });

  it('locks from free only when free covers the amount, moving nothing otherwise', () => {
    const account = new Account({ USDT: '100' });
    expect(account.lock('USDT', d('60'))).toBe(true);
    expect(account.of('USDT')).toEqual({ free: d('40'), locked: d('60') });
    expect(account.lock('USDT', d('40.000000001'))).toBe(false);
    expect(account.of('USDT')).toEqual({ free: d('40'), locked: d('60') });
    expect(account.lock('USDT', d('40'))).toBe(true);
    expect(account.of('USDT')).toEqual({ free: 0n, locked: d('100') });
  });

  it('unlocks back to free, spends from locked, credits free', () => {
    const account = new Account({ BTC: '3' });
    account.lock('BTC', d('2'));
    account.unlock('BTC', d('0.5'));
    expect(account.of('BTC')).toEqual({ free: d('1.5'), locked: d('1.5') });
    account.spendLocked('BTC', d('1'));
    expect(account.of('BTC')).toEqual({ free: d('1.5'), locked: d('0.5') });
    account.credit('BTC', d('0.25'));
    account.credit('ETH', d('7'));
    expect(account.of('BTC')).toEqual({ free: d('1.75'), locked: d('0.5') });
    expect(account.of('ETH')).toEqual({ free: d('7'), locked: 0n });
  });

  it('snapshots every asset it knows, sorted, as shortest decimal text with total = free + locked', () => {
    const account = new Account({ USDT: '100', BTC: '1.5' });
    account.lock('USDT', d('25.25'));
    account.of('ADA');
    expect(account.snapshot()).toEqual([
      { asset: 'ADA', assetId: 'ADA', assetName: 'ADA', total: '0', free: '0', locked: '0' },
      { asset: 'BTC', assetId: 'BTC', assetName: 'BTC', total: '1.5', free: '1.5', locked: '0' },
      { asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '100', free: '74.75', locked: '25.25' },
    ]);
  });

  it('has the documented default balances', () => {
    expect(new Account(DEFAULT_BALANCES).snapshot().map((b) => [b.asset, b.free])).toEqual([
      ['BTC', '10'],
      ['ETH', '100'],
      ['USDT', '100000'],
    ]);
  });
});
