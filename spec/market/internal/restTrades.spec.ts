import { of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { RestTrade } from '../../../lib/codecs/rest/marketData';
import { DecodeError } from '../../../lib/errors';
import { restTrades } from '../../../lib/market/internal/restTrades';

describe('restTrades', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  const restOf = (trades: RestTrade[], asked: unknown[] = []) => ({
    trades: (request: { readonly symbol: string; readonly limit?: number | undefined }) => {
      asked.push(request);
      return of(trades);
    },
  });

  it('asks for the latest `limit` trades of the symbol and maps them to trade records (ibm → m)', () => {
    testScheduler.run(({ expectObservable }) => {
      const asked: unknown[] = [];
      const fetch = restTrades(restOf([{ v: '9007199254740993', t: 1, p: '100', q: '0.5', ibm: true }], asked), 60);
      expectObservable(fetch('BTCUSDT')).toBe('(a|)', { a: [{ v: '9007199254740993', t: 1, p: '100', q: '0.5', m: true }] });
      testScheduler.flush();
      expect(asked).toEqual([{ symbol: 'BTCUSDT', limit: 60 }]);
    });
  });

  it('errors with a DecodeError naming the first trade without an id or a side (they cannot be merged)', () => {
    testScheduler.run(({ expectObservable }) => {
      const noId = restTrades(restOf([{ v: '1', t: 1, p: '1', q: '1', ibm: false }, { t: 2, p: '1', q: '1', ibm: false }]), 10);
      const noSide = restTrades(restOf([{ v: '1', t: 1, p: '1', q: '1' }]), 10);
      expectObservable(noId('X')).toBe('#', undefined, new DecodeError('codec', 'GET /quote/v1/trades: trade 1 has no `v`, the trades cannot be merged by id', ['1.v']));
      expectObservable(noSide('X')).toBe('#', undefined, new DecodeError('codec', 'GET /quote/v1/trades: trade 0 has no `ibm`, the trades cannot be merged by id', ['0.ibm']));
    });
  });
});
