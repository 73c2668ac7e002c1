/** OpenAPI text the merchant return procedures share. */

export const TAGS = ['Merchant: returns'];

export const READ_ACCESS = 'Needs `customers:read` or `orders:operate`.';

export const STATES =
  'States: `REQUESTED` → `APPROVED` → `RECEIVED` → `COMPLETED`; `REQUESTED` or `APPROVED` → `REJECTED` (merchant); `REQUESTED` → `CANCELLED` (the customer).';

export const MOVE = (what: string) =>
  `Needs \`orders:operate\`. ${what} Any other move is \`409 INVALID_STATE_TRANSITION\`; concurrent moves are judged one after the other. The customer is emailed. ${STATES}`;
