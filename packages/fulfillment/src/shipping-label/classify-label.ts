import type { LabelAcknowledgement, LabelBlocker, LabelDecision } from './schemas.ts';

/** A charge at or above this is high-risk whatever the order collected. */
export const HIGH_RISK_CHARGE_IN_CENTS = 5000;
/** Or over this many times the shipping the record collected. */
export const HIGH_RISK_COLLECTED_MULTIPLE = 3;

export interface LabelFacts {
  blockers: readonly { code: LabelBlocker; message: string }[];
  /** The exact charge; null when none could be computed. */
  chargeInCents: number | null;
  collectedShippingInCents: number;
  /** The package is not the proven fit: another preset, custom dimensions, or none proven. */
  isPackageOverride: boolean;
  /** Loaded weight below catalog unit weights + tare, when all are known. */
  isWeightBelowCatalog: boolean;
}

/**
 * The one classification of quote and purchase: `BLOCKED` with any
 * blocker; else `HIGH_RISK` for a charge of 5000 or more, or over 3 times the
 * collected shipping (it needs the spend `reason`); else `REVIEW_REQUIRED`
 * when an acknowledgement is required; else `STANDARD`. Pure.
 */
export function classifyLabel(facts: LabelFacts): LabelDecision {
  const charge = facts.chargeInCents;
  const acknowledgementsRequired: LabelAcknowledgement[] = [];
  if (facts.isPackageOverride) acknowledgementsRequired.push('PACKAGE_OVERRIDE');
  if (facts.isWeightBelowCatalog) acknowledgementsRequired.push('WEIGHT_BELOW_CATALOG');
  if (charge !== null && charge > facts.collectedShippingInCents)
    acknowledgementsRequired.push('CHARGE_EXCEEDS_COLLECTED_SHIPPING');
  const spendReasonRequired =
    charge !== null &&
    (charge >= HIGH_RISK_CHARGE_IN_CENTS ||
      charge > HIGH_RISK_COLLECTED_MULTIPLE * facts.collectedShippingInCents);
  const classification =
    facts.blockers.length > 0
      ? 'BLOCKED'
      : spendReasonRequired
        ? 'HIGH_RISK'
        : acknowledgementsRequired.length > 0
          ? 'REVIEW_REQUIRED'
          : 'STANDARD';
  return {
    classification,
    acknowledgementsRequired,
    overrideReasonRequired: facts.isPackageOverride || facts.isWeightBelowCatalog,
    spendReasonRequired,
    blockers: [...facts.blockers],
  };
}
