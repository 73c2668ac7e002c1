import { createHash } from 'node:crypto';
import { canonicalJson } from '@commerce/core';
import type { CarrierAddress } from '../carrier/carrier-provider.ts';
import type { LabelAcknowledgement } from './schemas.ts';

export const FINGERPRINT_VERSION = 1;

const sha256 = (text: string) => createHash('sha256').update(text);

/**
 * An address as the carrier would read it: fields trimmed, inner whitespace
 * collapsed, upper case (so "1 main st" and "1  Main St" rate the same),
 * absent optional fields as empty; then its SHA-256 in hex.
 */
export function addressDigest(address: CarrierAddress): string {
  const normal = (value: string | undefined) => (value ?? '').trim().replace(/\s+/g, ' ').toUpperCase();
  return sha256(
    canonicalJson({
      name: normal(address.name),
      company: normal(address.company),
      line1: normal(address.line1),
      line2: normal(address.line2),
      city: normal(address.city),
      state: normal(address.state),
      postalCode: normal(address.postalCode),
      country: normal(address.country),
      phone: normal(address.phone),
    }),
  ).digest('hex');
}

export interface FingerprintSelection {
  organizationId: string;
  recordId: string;
  fulfillmentId: string | null;
  lines: readonly { lineId: string; quantity: number }[];
  package:
    | { boxPresetId: string; boxPresetRevision: number; lengthMm: number; widthMm: number; heightMm: number }
    | { lengthMm: number; widthMm: number; heightMm: number };
  loadedWeightGrams: number;
  carrier: string;
  service: string;
  shipFrom: CarrierAddress;
  shipTo: CarrierAddress;
  chargeInCents: number;
  currency: string;
  acknowledgementsRequired: readonly LabelAcknowledgement[];
  overrideReasonRequired: boolean;
  spendReasonRequired: boolean;
}

/**
 * `sqf1_` + 43 base64url characters of the SHA-256 of the canonical JSON of
 * what the purchase will spend on. Blockers, funding, keys, reasons,
 * actor and time are not bound: a top-up never invalidates a quote.
 */
export function selectionQuoteFingerprint(selection: FingerprintSelection): string {
  const digest = sha256(
    canonicalJson({
      version: FINGERPRINT_VERSION,
      organizationId: selection.organizationId,
      recordId: selection.recordId,
      fulfillmentId: selection.fulfillmentId,
      lines: [...selection.lines]
        .sort((a, b) => (a.lineId < b.lineId ? -1 : a.lineId > b.lineId ? 1 : 0))
        .map(({ lineId, quantity }) => ({ lineId, quantity })),
      package: selection.package,
      loadedWeightGrams: selection.loadedWeightGrams,
      carrier: selection.carrier,
      service: selection.service,
      shipFromDigest: addressDigest(selection.shipFrom),
      shipToDigest: addressDigest(selection.shipTo),
      chargeInCents: selection.chargeInCents,
      currency: selection.currency,
      acknowledgementsRequired: [...selection.acknowledgementsRequired].sort(),
      overrideReasonRequired: selection.overrideReasonRequired,
      spendReasonRequired: selection.spendReasonRequired,
    }),
  ).digest('base64url');
  return `sqf1_${digest}`;
}
