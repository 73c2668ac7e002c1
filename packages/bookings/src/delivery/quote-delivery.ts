import { AppError } from '@commerce/core';
import type { BookingClockContext } from '../context.ts';
import type { DeliverySettings } from '../services/schemas.ts';
import type { DistanceProvider } from './distance-provider.ts';
import type { DeliveryAddress, DeliveryInput, DeliverySnapshot } from './schemas.ts';

const DESTINATION_PATH = 'delivery.destinationAddress';

const refusal = (
  code:
    | 'BOOKING_DELIVERY_INVALID'
    | 'BOOKING_DELIVERY_DESTINATION_INVALID'
    | 'BOOKING_DELIVERY_OUT_OF_RANGE'
    | 'BOOKING_DELIVERY_UNAVAILABLE',
  path: string,
  message: string,
) => new AppError(code, undefined, { issues: [{ path, message }] });

const summary = (address: DeliveryAddress) => `${address.city}, ${address.postalCode}, ${address.country}`;

/**
 * Decides a hold's delivery before its transaction: the method
 * against the service `delivery.mode` (400 BOOKING_DELIVERY_INVALID), then
 * the fee, flat (no distance evaluated) or from the first band at or above
 * the distance the provider measures from the service origin (400
 * BOOKING_DELIVERY_DESTINATION_INVALID when it cannot place the address, 400
 * BOOKING_DELIVERY_OUT_OF_RANGE beyond the last band, 503
 * BOOKING_DELIVERY_UNAVAILABLE when it fails or times out). Reads only: a
 * failure leaves nothing behind, so a retry with the same key runs again.
 * `settings` are the service's, read with it before the transaction.
 */
export async function quoteDelivery(
  ctx: BookingClockContext,
  settings: DeliverySettings,
  input: { delivery?: DeliveryInput },
  distance: DistanceProvider,
): Promise<DeliverySnapshot> {
  const evaluatedAt = ctx.at.toISOString();
  const delivery = input.delivery ?? null;

  if (delivery === null || delivery.method === 'PICKUP') {
    if (settings.mode === 'REQUIRED') {
      throw refusal(
        'BOOKING_DELIVERY_INVALID',
        delivery === null ? 'delivery' : 'delivery.method',
        'this service is delivered only: send { method: DELIVERY, destinationAddress }',
      );
    }
    return {
      method: 'PICKUP',
      address: null,
      addressSummary: null,
      distanceMeters: null,
      band: null,
      area: null,
      feeInCents: 0,
      evaluatedAt,
    };
  }
  if (settings.mode === 'PICKUP_ONLY') {
    throw refusal('BOOKING_DELIVERY_INVALID', 'delivery.method', 'this service offers pickup only');
  }
  const address = delivery.destinationAddress;
  const delivered = { method: 'DELIVERY' as const, address, addressSummary: summary(address), evaluatedAt };
  if (settings.flatFeeInCents !== null) {
    return {
      ...delivered,
      distanceMeters: null,
      band: null,
      area: null,
      feeInCents: settings.flatFeeInCents,
    };
  }
  const bands = settings.bands ?? [];
  const lastBand = bands.at(-1);
  if (settings.originAddress === null || lastBand === undefined) {
    // The service schema refuses such settings; a row written otherwise is the merchant's gap, not the client's.
    throw refusal(
      'BOOKING_DELIVERY_UNAVAILABLE',
      DESTINATION_PATH,
      'delivery cannot be rated for this service',
    );
  }

  let outcome: Awaited<ReturnType<DistanceProvider['distance']>>;
  try {
    outcome = await distance.distance({ origin: settings.originAddress, destination: address });
  } catch (error) {
    throw new AppError(
      'BOOKING_DELIVERY_UNAVAILABLE',
      undefined,
      {
        issues: [{ path: DESTINATION_PATH, message: 'the distance could not be measured now; retry later' }],
      },
      { cause: error },
    );
  }
  if (outcome.status === 'UNRESOLVABLE') {
    throw refusal('BOOKING_DELIVERY_DESTINATION_INVALID', DESTINATION_PATH, 'the address could not be found');
  }
  const band =
    outcome.status === 'RESOLVED'
      ? bands.find((candidate) => outcome.meters <= candidate.maxDistanceMeters)
      : undefined;
  if (outcome.status === 'NO_ROUTE' || band === undefined) {
    throw refusal(
      'BOOKING_DELIVERY_OUT_OF_RANGE',
      DESTINATION_PATH,
      `the address is beyond the delivery range (${lastBand.maxDistanceMeters} m)`,
    );
  }
  return {
    ...delivered,
    distanceMeters: outcome.status === 'RESOLVED' ? outcome.meters : 0,
    band: { label: band.label, maxDistanceMeters: band.maxDistanceMeters },
    area: band.label,
    feeInCents: band.feeInCents,
  };
}
