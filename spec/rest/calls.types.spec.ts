import type { Observable } from 'rxjs';
import type { BatchPlacementResult, NewOrderRequest, OrderRef } from '../../lib/rest/callTypes';
import type { RestClient } from '../../lib/rest/types';
import type { RestOrder } from '../../lib/codecs/rest/order';

// Checked by `tsc --noEmit -p .` (each `@ts-expect-error` fails the type check when the line compiles);
// the runtime assertions only keep jest from reporting an empty file.
declare const rest: RestClient;

const accepted: NewOrderRequest[] = [
  { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.1', timeInForce: 'GTC' },
  { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT_MAKER', price: '30000.5', quantity: '1e-3' },
  { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '100' },
  { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1', newClientOrderId: 'x' },
  { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.1', stpMode: 'EXPIRE_MAKER' },
];

const rejected = (): unknown[] => [
  // @ts-expect-error a number quantity: binary rounding must not reach an order
  { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: 0.1 } satisfies NewOrderRequest,
  // @ts-expect-error a misspelt side
  { symbol: 'BTCUSDT', side: 'BYU', type: 'LIMIT', price: '30000', quantity: '0.1' } satisfies NewOrderRequest,
  // @ts-expect-error an unknown order type
  { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP', price: '30000', quantity: '0.1' } satisfies NewOrderRequest,
  // @ts-expect-error an unknown time in force
  { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.1', timeInForce: 'GTX' } satisfies NewOrderRequest,
  // @ts-expect-error a price that is not decimal text
  { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: 'cheap', quantity: '0.1' } satisfies NewOrderRequest,
  // @ts-expect-error a limit order without price
  { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.1' } satisfies NewOrderRequest,
  // @ts-expect-error a market order with a price
  { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1', price: '1' } satisfies NewOrderRequest,
  // @ts-expect-error both ids, or a numeric id
  { orderId: '1', clientOrderId: 'x' } satisfies OrderRef,
  // @ts-expect-error a numeric order id
  { orderId: 1 } satisfies OrderRef,
  // @ts-expect-error an undocumented self-trade prevention mode
  { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.1', stpMode: 'CANCEL_BOTH' } satisfies NewOrderRequest,
  // @ts-expect-error cancelling all open orders needs a symbol
  rest.cancelOpenOrders(),
  // @ts-expect-error ... and not only a side
  rest.cancelOpenOrders({ side: 'BUY' }),
  // @ts-expect-error order ids are text
  rest.cancelOrdersByIds([1470000001]),
  // @ts-expect-error own trades by client order id need the id
  rest.myTradesByClientOrderId({}),
];

/** A batch result says which: only a placed one has an order, only an unknown one what finds it. */
const verdict = (r: BatchPlacementResult): string => {
  switch (r.outcome) {
    case 'placed':
      return r.order.orderId;
    case 'rejected':
      return r.code ?? '';
    case 'unknown':
      return r.inDoubt.clientOrderId ?? r.reason;
  }
};

const typedAnswers = (): Observable<RestOrder> => rest.newOrder(accepted[0]!);

describe('typed REST calls (types)', () => {
  it('accepts well-formed requests and rejects wrong sides, types and numeric amounts at compile time', () => {
    expect(accepted).toHaveLength(5);
    expect(typeof verdict).toBe('function');
    expect(typeof rejected).toBe('function');
    expect(typeof typedAnswers).toBe('function');
  });
});
