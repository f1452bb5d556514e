/**
 * The orders `placeOrder` and `cancelOrder` follow right now, as far as each is known: the reconciliation after a
 * gap looks each up with the orders the state knew as not final, so an order placed or cancelled around a gap is
 * never lost to `orders$`. One registry per user stream (it outlives its runs).
 * @internal
 * @module
 */
import type { OrderIdentity } from '../../errors';

/** One followed order; `orderId` is filled in once an answer names it. @internal */
export interface FollowedOrder extends OrderIdentity {
  orderId?: string | undefined;
  readonly clientOrderId?: string | undefined;
  readonly symbol?: string | undefined;
  /**
   * For a placement whose answer is not in yet (or was lost): the local time from which "no such order" proves it
   * was not placed (its `recvWindow` has passed). `undefined` for an order known to exist.
   */
  readonly notPlacedAfter?: number | undefined;
}

/** @internal */
export class FollowedOrders {
  private readonly orders = new Set<FollowedOrder>();

  /** Follows `order` until the returned function is called. */
  follow(order: FollowedOrder): () => void {
    this.orders.add(order);
    return () => this.orders.delete(order);
  }

  /** The orders followed now. */
  list(): readonly FollowedOrder[] {
    return [...this.orders];
  }
}
