import type { ReturnStatus } from '@commerce/db';

/**
 * A return's states (docs/orders.md, "Returns"): the customer requests it;
 * the merchant approves or rejects it, marks the goods received and completes
 * it (the refund); the customer may cancel it while it is still REQUESTED.
 * COMPLETED, REJECTED and CANCELLED are terminal.
 */
export const RETURN_TRANSITIONS: Readonly<Record<ReturnStatus, readonly ReturnStatus[]>> = {
  REQUESTED: ['APPROVED', 'REJECTED', 'CANCELLED'],
  APPROVED: ['RECEIVED', 'REJECTED'],
  RECEIVED: ['COMPLETED'],
  COMPLETED: [],
  REJECTED: [],
  CANCELLED: [],
};

export function canMoveReturn(from: ReturnStatus, to: ReturnStatus): boolean {
  return RETURN_TRANSITIONS[from].includes(to);
}
