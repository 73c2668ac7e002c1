/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: returns'];

export const READ_ACCESS =
  'Needs `customers:read` or `orders:operate` (Owner and Admin hold both); other Staff get `403`.';

export const STATES =
  'States: `REQUESTED` → `APPROVED` → `RECEIVED` → `COMPLETED`; `REQUESTED` or `APPROVED` → `REJECTED` (merchant); `REQUESTED` → `CANCELLED` (the customer). `COMPLETED`, `REJECTED` and `CANCELLED` are final.';

export const MOVE = (what: string, email: string) =>
  [
    `Needs \`orders:operate\`. ${what} Any other move, the current state included, is \`409 INVALID_STATE_TRANSITION\` (\`details { from, to }\`) and changes nothing; an unknown or another organization's return is \`404\`.`,
    `The return is locked while the move is judged, so of two concurrent moves the second is judged from the state the first left. Audited as \`return.<verb>\` with \`{ orderId, from, to }\`; the \`${email}\` email is queued to the customer in the same transaction. Answers the return.`,
    STATES,
  ].join('\n\n');
