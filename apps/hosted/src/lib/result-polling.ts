/**
 * How often and how long the checkout result page asks the server before saying "still
 * processing" (a module of its own so the browser tests move a page's clock past the same wait).
 */
export const RESULT_POLL_MS = 1_000;
export const RESULT_POLL_LIMIT_MS = 30_000;
