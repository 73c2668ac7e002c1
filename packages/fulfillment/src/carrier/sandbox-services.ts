import type { CarrierParcel, CarrierService } from './carrier-provider.ts';

/** The sandbox carrier's name in responses and postage. */
export const SANDBOX_CARRIER = 'sandbox';

export const SANDBOX_SERVICE_CODES = ['GROUND', 'EXPRESS', 'OVERNIGHT'] as const;
export type SandboxServiceCode = (typeof SANDBOX_SERVICE_CODES)[number];

interface SandboxService extends CarrierService {
  code: SandboxServiceCode;
  baseInCents: number;
  /** Added per started 500 g of billable weight. */
  perStepInCents: number;
}

const MAX_LENGTH_MM = 1500;

/** The sandbox's services: base, per started 500 g, maximum billable weight, domestic only. */
export const SANDBOX_SERVICES: readonly SandboxService[] = [
  {
    code: 'GROUND',
    name: 'Sandbox Ground',
    baseInCents: 500,
    perStepInCents: 60,
    maxBillableGrams: 30_000,
    maxLengthMm: MAX_LENGTH_MM,
    domesticOnly: false,
  },
  {
    code: 'EXPRESS',
    name: 'Sandbox Express',
    baseInCents: 1200,
    perStepInCents: 150,
    maxBillableGrams: 30_000,
    maxLengthMm: MAX_LENGTH_MM,
    domesticOnly: false,
  },
  {
    code: 'OVERNIGHT',
    name: 'Sandbox Overnight',
    baseInCents: 2900,
    perStepInCents: 300,
    maxBillableGrams: 10_000,
    maxLengthMm: MAX_LENGTH_MM,
    domesticOnly: true,
  },
];

const STEP_GRAMS = 500;
const VOLUMETRIC_DIVISOR = 5000;
const INTERNATIONAL_SURCHARGE_IN_CENTS = 1500;

export type SandboxCharge =
  | { status: 'OK'; chargeInCents: number; billableWeightGrams: number }
  | {
      status: 'REJECTED';
      providerCode: 'UNKNOWN_SERVICE' | 'SERVICE_UNAVAILABLE' | 'PACKAGE_EXCEEDS_SERVICE_LIMITS';
    };

/**
 * The sandbox's exact charge: billable weight is the larger of the
 * loaded weight and the volumetric weight `ceil(L × W × H / 5000)` (mm);
 * the charge is the base plus a step per started 500 g, plus 1500 when the
 * countries differ. A domestic-only service abroad is `SERVICE_UNAVAILABLE`;
 * a longest side over 1500 mm or a billable weight over the service's
 * maximum is `PACKAGE_EXCEEDS_SERVICE_LIMITS`.
 */
export function sandboxCharge(
  serviceCode: string,
  parcel: CarrierParcel,
  fromCountry: string,
  toCountry: string,
): SandboxCharge {
  const service = SANDBOX_SERVICES.find((candidate) => candidate.code === serviceCode);
  if (!service) return { status: 'REJECTED', providerCode: 'UNKNOWN_SERVICE' };
  const international = fromCountry.toUpperCase() !== toCountry.toUpperCase();
  if (service.domesticOnly && international)
    return { status: 'REJECTED', providerCode: 'SERVICE_UNAVAILABLE' };
  const volumetricGrams = Math.ceil(
    (parcel.lengthMm * parcel.widthMm * parcel.heightMm) / VOLUMETRIC_DIVISOR,
  );
  const billableWeightGrams = Math.max(parcel.weightGrams, volumetricGrams);
  const longestSide = Math.max(parcel.lengthMm, parcel.widthMm, parcel.heightMm);
  if (longestSide > service.maxLengthMm || billableWeightGrams > service.maxBillableGrams)
    return { status: 'REJECTED', providerCode: 'PACKAGE_EXCEEDS_SERVICE_LIMITS' };
  const chargeInCents =
    service.baseInCents +
    service.perStepInCents * Math.ceil(billableWeightGrams / STEP_GRAMS) +
    (international ? INTERNATIONAL_SURCHARGE_IN_CENTS : 0);
  return { status: 'OK', chargeInCents, billableWeightGrams };
}
