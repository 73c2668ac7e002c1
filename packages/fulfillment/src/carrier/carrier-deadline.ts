import { CarrierNotSentError, type CarrierProvider, type CarrierResult } from './carrier-provider.ts';

/**
 * One call under the deadline: its answer if it comes in time;
 * `UNCERTAIN` when the deadline passes first (the request may be at the
 * carrier) or it throws after sending; `UNAVAILABLE` when it throws
 * `CarrierNotSentError`. Never throws.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  call: () => Promise<CarrierResult<T>>,
): Promise<CarrierResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<CarrierResult<T>>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'UNCERTAIN', message: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const answer = Promise.resolve()
    .then(call)
    .catch(
      (error: unknown): CarrierResult<T> =>
        error instanceof CarrierNotSentError
          ? { kind: 'UNAVAILABLE', message: error.message }
          : { kind: 'UNCERTAIN', message: 'the carrier call failed after it may have been sent' },
    );
  try {
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The provider with every call under the deadline; `services()` is local and answers at once. */
export function withCarrierDeadline(provider: CarrierProvider, timeoutMs: number): CarrierProvider {
  return {
    carrier: provider.carrier,
    services: () => provider.services(),
    rate: (account, request) => withDeadline(timeoutMs, () => provider.rate(account, request)),
    balance: (account) => withDeadline(timeoutMs, () => provider.balance(account)),
    purchase: (account, request) => withDeadline(timeoutMs, () => provider.purchase(account, request)),
    findPurchase: (account, reference) =>
      withDeadline(timeoutMs, () => provider.findPurchase(account, reference)),
    requestVoid: (account, label) => withDeadline(timeoutMs, () => provider.requestVoid(account, label)),
    readLabel: (account, label) => withDeadline(timeoutMs, () => provider.readLabel(account, label)),
    labelDocument: (account, label) => withDeadline(timeoutMs, () => provider.labelDocument(account, label)),
  };
}
