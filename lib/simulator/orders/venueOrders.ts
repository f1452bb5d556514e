import type { RequestParams } from '../http/auth';
import { rejections, type HttpRejection } from '../http/httpErrors';
import type { Matching, OrderResult } from './matching';

// The order calls HashKey has beyond the specification, over the simulator's matching: the v1 placement's
// reading of a MARKET BUY, batch placement, cancel by ids, the order history and own trades by client order id.

const fail = (rejection: HttpRejection): OrderResult => ({ ok: false, rejection });

/**
 * `POST /api/v1/spot/order`'s parameters read as v1.1's (which the matching reads): there is no `amount` (refused
 * with -1130, the simulator's choice), and a MARKET BUY's `quantity` is the quote amount to spend.
 * @internal
 */
export function fromV1(params: RequestParams): RequestParams | HttpRejection {
  if (params.has('amount')) return rejections.invalidParameter('amount');
  if (params.get('type') !== 'MARKET' || params.get('side') !== 'BUY') return params;
  const out = new Map(params);
  const quantity = out.get('quantity');
  out.delete('quantity');
  if (quantity !== undefined) out.set('amount', quantity);
  return out;
}

const SUCCESS = '0000';

/** The order ids placed through the HTTP API, oldest first (the order history reads them back). */
export class PlacedOrders {
  private readonly ids: string[] = [];
  constructor(private readonly max = 20_000) {}
  add(result: OrderResult): OrderResult {
    const id = result.ok ? (result.body as { orderId?: unknown }).orderId : undefined;
    if (typeof id === 'string') {
      this.ids.push(id);
      if (this.ids.length > this.max) this.ids.shift();
    }
    return result;
  }
  all(): readonly string[] {
    return this.ids;
  }
}

const textParams = (item: unknown): Map<string, string> | undefined => {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.set(k, String(v));
  }
  return out;
};

/**
 * `POST /api/v1.1/spot/batchOrders`: a JSON array of 1 to 20 orders of one symbol, each placed as by the v1.1
 * path, in order → `{ code: 0, result: [{ code: '0000', order } | { code, msg }], concentration: '' }`.
 * @internal
 */
export function batchPlace(matching: Matching, placed: PlacedOrders, body: string): OrderResult {
  let items: unknown;
  try {
    items = JSON.parse(body);
  } catch {
    return fail(rejections.invalidParameter('body'));
  }
  if (!Array.isArray(items) || items.length === 0 || items.length > 20) return fail(rejections.batchTooLarge);
  const orders = items.map(textParams);
  if (orders.some((o) => o === undefined)) return fail(rejections.invalidParameter('orders'));
  if (new Set(orders.map((o) => o!.get('symbol'))).size > 1) return fail(rejections.batchTooLarge);
  const result = orders.map((p) => {
    const r = placed.add(matching.place(p!));
    return r.ok ? { code: SUCCESS, order: r.body } : { code: String(r.rejection.code), msg: r.rejection.msg };
  });
  return { ok: true, body: { code: 0, result, concentration: '' } };
}

/** `DELETE /api/v1/spot/cancelOrderByIds?ids=a,b`: at most 100 ids → `{ code: '0000', result: [the failures] }`. @internal */
export function cancelByIds(matching: Matching, params: RequestParams): OrderResult {
  const text = params.get('ids');
  if (text === undefined || text === '') return fail(rejections.missingParameter('ids'));
  const ids = text.split(',');
  if (ids.length > 100 || ids.some((id) => !/^\d{1,20}$/.test(id))) return fail(rejections.invalidParameter('ids'));
  const result = ids.flatMap((orderId) => {
    const r = matching.cancel(new Map([['orderId', orderId]]));
    return r.ok ? [] : [{ orderId, code: String(r.rejection.code) }];
  });
  return { ok: true, body: { code: SUCCESS, result } };
}

/** `DELETE /api/v1/spot/openOrders` needs `symbol`, as the venue does. @internal */
export function cancelAllOfSymbol(matching: Matching, params: RequestParams): OrderResult {
  return params.has('symbol') ? matching.cancelAll(params) : fail(rejections.symbolRequired);
}

const OPEN = new Set(['NEW', 'PARTIALLY_FILLED', 'PENDING_NEW', 'PENDING_CANCEL']);

const bound = (params: RequestParams, name: string): bigint | undefined | null => {
  const v = params.get(name);
  if (v === undefined) return undefined;
  return /^\d{1,20}$/.test(v) ? BigInt(v) : null;
};

/**
 * `GET /api/v1/spot/tradeOrders`: orders placed through the API that are no longer open, newest first: of
 * `symbol` and `side`, created in [startTime, endTime], with ids below `orderId`, at most `limit` (default 500, max
 * 1000). @internal
 */
export function orderHistory(matching: Matching, placed: PlacedOrders, params: RequestParams): OrderResult {
  const names = ['startTime', 'endTime', 'orderId', 'limit'] as const;
  const b = Object.fromEntries(names.map((n) => [n, bound(params, n)])) as Record<(typeof names)[number], bigint | undefined | null>;
  const bad = names.find((n) => b[n] === null);
  if (bad !== undefined) return fail(rejections.invalidParameter(bad));
  const limit = Number(b.limit ?? 500n);
  if (limit < 1 || limit > 1000) return fail(rejections.invalidParameter('limit'));
  const symbol = params.get('symbol');
  const side = params.get('side');
  const out: object[] = [];
  const ids = placed.all();
  for (let i = ids.length - 1; i >= 0 && out.length < limit; i--) {
    const id = ids[i]!;
    if (b.orderId != null && BigInt(id) >= b.orderId) continue;
    const r = matching.query(new Map([['orderId', id]]));
    if (!r.ok) continue;
    const o = r.body as { symbol?: string; side?: string; status?: string; time?: string };
    const time = BigInt(o.time ?? '0');
    if (OPEN.has(o.status ?? '') || (symbol !== undefined && o.symbol !== symbol) || (side !== undefined && o.side !== side)) continue;
    if ((b.startTime != null && time < b.startTime) || (b.endTime != null && time > b.endTime)) continue;
    out.push(r.body);
  }
  return { ok: true, body: out };
}

/**
 * `GET /api/v1/account/tradesByClOrderId`: the fills of the order with `clientOrderId`, newest first, ids in
 * (fromId, toId), at most `limit` (default 500, max 1000). @internal
 */
export function tradesByClientOrderId(matching: Matching, params: RequestParams): OrderResult {
  const clientOrderId = params.get('clientOrderId');
  if (clientOrderId === undefined || clientOrderId === '') return fail(rejections.missingParameter('clientOrderId'));
  const names = ['fromId', 'toId', 'limit'] as const;
  const b = Object.fromEntries(names.map((n) => [n, bound(params, n)])) as Record<(typeof names)[number], bigint | undefined | null>;
  const bad = names.find((n) => b[n] === null);
  if (bad !== undefined) return fail(rejections.invalidParameter(bad));
  const limit = Number(b.limit ?? 500n);
  if (limit < 1 || limit > 1000) return fail(rejections.invalidParameter('limit'));
  const all = matching.accountTrades(new Map([['limit', '1000']]));
  if (!all.ok) return all;
  const fills = (all.body as Array<{ id: string; clientOrderId?: string }>)
    .filter((f) => f.clientOrderId === clientOrderId && (b.fromId == null || BigInt(f.id) > b.fromId) && (b.toId == null || BigInt(f.id) < b.toId))
    .reverse()
    .slice(0, limit);
  return { ok: true, body: fills };
}
