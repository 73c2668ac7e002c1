import type { DeliveryAddress } from './schemas.ts';

/**
 * Delivery distances: a provider behind an interface, chosen by
 * DISTANCE_PROVIDER and called before the hold's transaction, never inside it.
 */
export interface DistanceProvider {
  readonly kind: 'sandbox' | 'google' | 'none';
  /**
   * The driving distance from `origin` to `destination`. Answers `RESOLVED`
   * with whole metres, `UNRESOLVABLE` when the destination is not an address
   * the provider knows (400), `NO_ROUTE` when it is but nothing reaches it
   * (beyond every band). Throws when the provider fails or times out (503).
   */
  distance(request: DistanceRequest): Promise<DistanceOutcome>;
}

export interface DistanceRequest {
  origin: DistanceAddress;
  destination: DistanceAddress;
}

/** The fields of an address a provider reads. */
export type DistanceAddress = Pick<DeliveryAddress, 'line1' | 'city' | 'postalCode' | 'country'> &
  Partial<Pick<DeliveryAddress, 'line2' | 'state'>>;

export type DistanceOutcome =
  | { status: 'RESOLVED'; meters: number }
  | { status: 'UNRESOLVABLE' }
  | { status: 'NO_ROUTE' };

/** A provider that could not answer: its message is for logs, never for the client. */
export class DistanceUnavailableError extends Error {
  override name = 'DistanceUnavailableError';
}

/** `00000` cannot be resolved and `99999` is unreachable, for tests of both failures. */
export const SANDBOX_UNRESOLVABLE_POSTAL_CODE = '00000';
export const SANDBOX_UNREACHABLE_POSTAL_CODE = '99999';
const SANDBOX_MODULUS = 200_000;

/**
 * The sandbox: the distance in metres is the digits of the
 * destination's normalized postal code, read as one number, modulo 200,000
 * (`1000-205` is 8,205 m; `SW1A 1AA` is 11 m). A code without digits cannot
 * be resolved. The origin is not read.
 */
export const sandboxDistanceProvider: DistanceProvider = {
  kind: 'sandbox',
  async distance({ destination }) {
    const code = destination.postalCode;
    if (code === SANDBOX_UNREACHABLE_POSTAL_CODE) {
      throw new DistanceUnavailableError('the sandbox distance provider is unreachable for 99999');
    }
    const digits = code.replace(/\D/g, '');
    if (code === SANDBOX_UNRESOLVABLE_POSTAL_CODE || digits === '') return { status: 'UNRESOLVABLE' };
    let meters = 0;
    // Digit by digit, so a long code never loses precision.
    for (const digit of digits) meters = (meters * 10 + Number(digit)) % SANDBOX_MODULUS;
    return { status: 'RESOLVED', meters };
  },
};
