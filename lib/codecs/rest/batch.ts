import * as t from 'io-ts';
import { IdFromNumberOrString, TextFromNumberOrString } from '../primitives';
import { declaredAs, nullable, struct } from '../struct';
import { RestOrderCodec, type RestOrder } from './order';

/**
 * The answer of HashKey's batch placement (`POST /api/v1.1/spot/batchOrders`): `result`, one item per order sent,
 * each read on its own by {@link BatchOrderItemCodec} (an item that cannot be read costs only its own order);
 * `code` and `concentration` when sent.
 *
 * @example
 * ```ts
 * import { BatchOrdersAnswerCodec } from 'ex-streams/codecs';
 * BatchOrdersAnswerCodec.is({ code: 0, result: [{ code: '0000', order: { orderId: '1', symbol: 'BTCUSD', side: 'SELL', status: 'NEW' } }] }); // true
 * ```
 */
export const BatchOrdersAnswerCodec = declaredAs<BatchOrdersAnswer>()(struct(
  'BatchOrdersAnswer',
  { result: t.array(t.unknown) },
  { code: TextFromNumberOrString, concentration: t.string },
));
/**
 * A decoded batch placement answer, its items still unread.
 *
 * @example
 * ```ts
 * import type { BatchOrdersAnswer } from 'ex-streams/codecs';
 *
 * const answer: BatchOrdersAnswer = { code: '0', result: [] };
 * ```
 */
export interface BatchOrdersAnswer {
  /** One item per order sent, in the order sent (HashKey's documented example; not otherwise stated). */
  readonly result: unknown[];
  /** The batch's code (`0` when it was carried out), as text, when sent. */
  readonly code?: string;
  /** HashKey's concentration reminder, when sent. */
  readonly concentration?: string;
}

/**
 * One item of a batch placement answer: `code` (`'0000'` when placed) and, when placed, `order`; `msg` when
 * refused. Everything optional: what an item says is judged by the call (`batchOrders`).
 *
 * @example
 * ```ts
 * import { BatchOrderItemCodec } from 'ex-streams/codecs';
 * BatchOrderItemCodec.decode({ code: '-1141', msg: 'Duplicate clientOrderId' }); // right({ code: '-1141', msg: 'Duplicate clientOrderId' })
 * ```
 */
export const BatchOrderItemCodec = declaredAs<BatchOrderItem>()(struct(
  'BatchOrderItem',
  {},
  { code: TextFromNumberOrString, msg: t.string, order: RestOrderCodec },
));
/**
 * A decoded batch placement item.
 *
 * @example
 * ```ts
 * import type { BatchOrderItem } from 'ex-streams/codecs';
 *
 * const refused: BatchOrderItem = { code: '-1141', msg: 'Duplicate clientOrderId' };
 * ```
 */
export interface BatchOrderItem {
  /** The order's code as text (`'0000'`, or `'0'`, when placed), when sent. */
  readonly code?: string;
  /** The service's message, when sent. */
  readonly msg?: string;
  /** The order placed, when it was. */
  readonly order?: RestOrder;
}

/**
 * One order a cancel by ids could not cancel: its `orderId` and the reason's `code` (e.g. `'0211'`: not found).
 *
 * @example
 * ```ts
 * import { CancelByIdsFailureCodec } from 'ex-streams/codecs';
 * CancelByIdsFailureCodec.is({ orderId: '1507155386372816640', code: '0211' }); // true
 * ```
 */
export const CancelByIdsFailureCodec = declaredAs<CancelByIdsFailure>()(struct(
  'CancelByIdsFailure',
  { orderId: IdFromNumberOrString },
  { code: TextFromNumberOrString, msg: t.string },
));
/**
 * A decoded cancel-by-ids failure.
 *
 * @example
 * ```ts
 * import type { CancelByIdsFailure } from 'ex-streams/codecs';
 *
 * const failure: CancelByIdsFailure = { orderId: '1507155386372816640', code: '0211' };
 * ```
 */
export interface CancelByIdsFailure {
  /** The order id, exact text. */
  readonly orderId: string;
  /** Why it was not cancelled, the service's code as text, when sent. */
  readonly code?: string;
  /** The service's message, when sent. */
  readonly msg?: string;
}

/**
 * The answer of `DELETE /api/v1/spot/cancelOrderByIds`: `code` (`'0000'`: carried out) and `result`, the orders
 * that were **not** cancelled (empty or `null` when all were).
 *
 * @example
 * ```ts
 * import { CancelByIdsAnswerCodec } from 'ex-streams/codecs';
 * CancelByIdsAnswerCodec.is({ code: '0000', result: [] }); // true
 * ```
 */
export const CancelByIdsAnswerCodec = declaredAs<CancelByIdsAnswer>()(struct(
  'CancelByIdsAnswer',
  {},
  { code: TextFromNumberOrString, result: nullable(t.array(CancelByIdsFailureCodec)) },
));
/**
 * A decoded cancel-by-ids answer.
 *
 * @example
 * ```ts
 * import type { CancelByIdsAnswer } from 'ex-streams/codecs';
 *
 * const answer: CancelByIdsAnswer = { code: '0000', result: [{ orderId: '1507155386372816640', code: '0211' }] };
 * ```
 */
export interface CancelByIdsAnswer {
  /** The call's code as text, when sent. */
  readonly code?: string;
  /** The orders not cancelled, when sent. */
  readonly result?: CancelByIdsFailure[] | null;
}
