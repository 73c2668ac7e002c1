import type { OrderStatus } from '@commerce/db';

/**
 * Order status (docs/orders.md): PENDING → CONFIRMED → PROCESSING → COMPLETED, and
 * any non-terminal state → CANCELLED. COMPLETED and CANCELLED are terminal.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['PROCESSING', 'CANCELLED'],
  PROCESSING: ['COMPLETED', 'CANCELLED'],
  COMPLETED: [],
  CANCELLED: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}
