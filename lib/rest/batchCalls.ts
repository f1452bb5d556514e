/**
 * HashKey's batch calls: a batch placement (one JSON body, a result per order) and a cancel by ids (a result per
 * id). Neither is ever sent again; a lost answer is a {@link BatchOutcomeUnknownError} naming every order.
 * @module
 */
import * as E from 'fp-ts/Either';
import { catchError, defer, map, type Observable, throwError } from 'rxjs';
import { BatchOrderItemCodec, BatchOrdersAnswerCodec, CancelByIdsAnswerCodec, type BatchOrderItem } from '../codecs/rest/batch';
import { decodeWith } from '../codecs/decode';
import { BatchOutcomeUnknownError, ConfigError, type OrderInDoubt, RequestRejectedError } from '../errors';
import type { BatchPlacementResult, CancelByIdsResult, NewOrderRequest } from './callTypes';
import { leavesOutcomeUnknown } from './orderOutcome';
import { placement, placementInDoubt, wireParams } from './placement';
import type { RestRequest } from './types';

/** Paths of the batch calls. @internal */
export const BATCH_PATHS = { batchOrders: '/api/v1.1/spot/batchOrders', cancelOrderByIds: '/api/v1/spot/cancelOrderByIds' } as const;
/** Most orders of one batch placement, and most ids of one cancel by ids (HashKey's documented limits). @internal */
export const MAX_BATCH_ORDERS = 20;
/** @internal */
export const MAX_CANCEL_IDS = 100;
/** The documented weight of both calls. */
const BATCH_WEIGHT = 5;

/** Codes that say "carried out". */
const SUCCESS = new Set(['0', '0000', '200']);
const isSuccess = (code: string | undefined): boolean => code === undefined || SUCCESS.has(code.trim());

type Send = <A>(req: RestRequest<A>) => Observable<A>;

const inDoubtOnLoss = <T>(method: string, path: string, orders: readonly OrderInDoubt[]) =>
  catchError<T, Observable<never>>((error: unknown) =>
    throwError(() => (leavesOutcomeUnknown(error) ? new BatchOutcomeUnknownError(method, path, orders, error as Error) : error)),
  );

/** The checked placements of a batch: 1 to 20, one symbol, client order ids unique. */
function batchPlacements(orders: readonly NewOrderRequest[], newClientOrderId: () => string): NewOrderRequest[] {
  if (!Array.isArray(orders) || orders.length === 0 || orders.length > MAX_BATCH_ORDERS) {
    throw new ConfigError('orders', `must hold 1 to ${MAX_BATCH_ORDERS} orders (got ${Array.isArray(orders) ? orders.length : typeof orders})`);
  }
  const sent = orders.map((o) => placement(o, newClientOrderId));
  const symbols = new Set(sent.map((o) => o.symbol));
  if (symbols.size > 1) throw new ConfigError('orders', `must all be of one symbol (the venue takes one symbol a batch; got ${[...symbols].join(', ')})`);
  const ids = sent.map((o) => o.newClientOrderId);
  if (new Set(ids).size !== ids.length) throw new ConfigError('newClientOrderId', 'must differ between the orders of a batch');
  return sent;
}

/** What the answer says of the order sent as `sent`, found by its client order id, else at its place. */
function verdict(sent: NewOrderRequest, at: unknown, byClientId: ReadonlyMap<string, BatchOrderItem>): BatchPlacementResult {
  const id = sent.newClientOrderId!;
  const unknown = (reason: string): BatchPlacementResult => ({ outcome: 'unknown', request: sent, inDoubt: placementInDoubt(sent), reason });
  const found = byClientId.get(id);
  if (found?.order !== undefined) {
    return isSuccess(found.code) ? { outcome: 'placed', request: sent, order: found.order } : unknown(`an order was answered with code ${found.code}`);
  }
  if (at === undefined) return unknown('the answer has no item for this order');
  const item = decodeWith(BatchOrderItemCodec, at);
  if (E.isLeft(item)) return unknown('its item in the answer could not be read');
  const { code, msg, order } = item.right;
  if (order !== undefined) {
    // An order at this place that is another order (or says not which) is never taken for this one.
    return unknown(order.clientOrderId === undefined ? 'its item names no client order id' : 'its item names another order');
  }
  if (code !== undefined && !isSuccess(code)) return { outcome: 'rejected', request: sent, code, msg };
  return unknown('its item says neither placed nor refused');
}

/**
 * `POST /api/v1.1/spot/batchOrders`: the checked orders as a JSON array of text fields (their v1.1 form), one
 * result per order in the order sent. @internal
 */
export function batchOrdersCall(request: Send, newClientOrderId: () => string) {
  return (orders: readonly NewOrderRequest[]): Observable<BatchPlacementResult[]> =>
    defer(() => {
      const sent = batchPlacements(orders, newClientOrderId);
      const path = BATCH_PATHS.batchOrders;
      const jsonBody = JSON.stringify(sent.map((o) => wireParams(o, 'v1.1')));
      return request({ method: 'POST', path, jsonBody, security: 'TRADE', weight: BATCH_WEIGHT, codec: BatchOrdersAnswerCodec }).pipe(
        map((answer) => {
          const byClientId = new Map<string, BatchOrderItem>();
          for (const raw of answer.result) {
            const item = decodeWith(BatchOrderItemCodec, raw);
            const cid = E.isRight(item) ? item.right.order?.clientOrderId : undefined;
            if (E.isRight(item) && cid !== undefined && cid !== '') byClientId.set(cid, item.right);
          }
          return sent.map((o, i) => verdict(o, answer.result[i], byClientId));
        }),
        inDoubtOnLoss('POST', path, sent.map(placementInDoubt)),
      );
    });
}

/** `DELETE /api/v1/spot/cancelOrderByIds?ids=a,b`: one result per id, in the order given. @internal */
export function cancelOrdersByIdsCall(request: Send) {
  return (orderIds: readonly string[]): Observable<CancelByIdsResult[]> =>
    defer(() => {
      if (!Array.isArray(orderIds) || orderIds.length === 0 || orderIds.length > MAX_CANCEL_IDS) {
        throw new ConfigError('orderIds', `must hold 1 to ${MAX_CANCEL_IDS} ids (got ${Array.isArray(orderIds) ? orderIds.length : typeof orderIds})`);
      }
      for (const id of orderIds) {
        if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) throw new ConfigError('orderIds', 'must be order ids (digits, as text)');
      }
      const path = BATCH_PATHS.cancelOrderByIds;
      const query = { ids: orderIds.join(',') };
      return request({ method: 'DELETE', path, query, security: 'TRADE', weight: BATCH_WEIGHT, codec: CancelByIdsAnswerCodec }).pipe(
        map((answer) => {
          if (!isSuccess(answer.code)) throw new RequestRejectedError(200, answer.code, 'the cancel by ids was not carried out');
          const failed = new Map((answer.result ?? []).map((f) => [f.orderId, f]));
          return orderIds.map((orderId): CancelByIdsResult => {
            const f = failed.get(orderId);
            return f === undefined ? { orderId, outcome: 'accepted' } : { orderId, outcome: 'failed', code: f.code, msg: f.msg };
          });
        }),
        inDoubtOnLoss('DELETE', path, orderIds.map((orderId): OrderInDoubt => ({ action: 'cancel', orderId }))),
      );
    });
}
