import type { Order } from './order';

/** How many client order ids the account remembers (the duplicate check and lookups by client id). @internal */
export const CLIENT_ORDER_ID_MEMORY = 10_000;

/**
 * The account's last `capacity` client order ids and their orders, oldest forgotten first: a new order may not
 * reuse one (-1141), and `GET` / `DELETE /api/v1/spot/order` find an order by one.
 * @internal
 */
export class ClientOrderIds {
  private readonly orders = new Map<string, Order>();

  constructor(private readonly capacity = CLIENT_ORDER_ID_MEMORY) {}

  /** The order that used `clientOrderId`, while it is remembered. */
  get(clientOrderId: string): Order | undefined {
    return this.orders.get(clientOrderId);
  }

  /** Remembers the order's client id, forgetting the oldest one beyond the capacity. */
  add(order: Order): void {
    this.orders.set(order.clientOrderId, order);
    if (this.orders.size > this.capacity) {
      const oldest = this.orders.keys().next();
      if (oldest.done !== true) this.orders.delete(oldest.value);
    }
  }
}
