import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import type { CarrierParcel, CarrierProvider, Rate, RateRequest } from '../carrier/carrier-provider.ts';
import { resolvePackage } from '../fulfillments/fulfillment-package.ts';
import { currentPostage } from '../fulfillments/fulfillment-state.ts';
import { unfulfillableReason } from '../fulfillments/fulfillment-target.ts';
import type { FulfillmentPackageRead } from '../fulfillments/schemas.ts';
import { recommendPackageForLines } from '../shipping-package/recommend-shipping-package.ts';
import { classifyLabel } from './classify-label.ts';
import { fundingOf, openClaimsInCents } from './funding.ts';
import { labelSettingsOf, shipToOf } from './label-addresses.ts';
import { type FingerprintSelection, selectionQuoteFingerprint } from './quote-fingerprint.ts';
import type { LabelBlocker, ShippingLabelQuote, ShippingLabelQuoteInput } from './schemas.ts';

export interface LabelQuoteContext {
  organizationId: string;
  carrier: CarrierProvider;
}

const BLOCKER_MESSAGES: Record<LabelBlocker, string> = {
  ORDER_NOT_FULFILLABLE: 'The order is cancelled or unpaid',
  LINES_UNAVAILABLE: 'A line has fewer units left than selected',
  LINES_HELD_BY_UNSETTLED_PURCHASE: 'A selected line is held by an unsettled label purchase',
  FULFILLMENT_NOT_LABELABLE: 'The fulfillment is neither PLANNED nor READY without current postage',
  SHIP_FROM_ADDRESS_MISSING: 'Set businessProfile.shipFromAddress in the settings',
  SHIP_TO_ADDRESS_MISSING: 'The order has no shipping address',
  SERVICE_UNAVAILABLE: 'The service does not carry between these countries',
  PACKAGE_EXCEEDS_SERVICE_LIMITS: "The package is over the service's size or weight limits",
};

const RATE_BLOCKERS: ReadonlySet<string> = new Set(['SERVICE_UNAVAILABLE', 'PACKAGE_EXCEEDS_SERVICE_LIMITS']);

/**
 * `POST /merchant/orders/:orderId/shipping-label/quote`: what the
 * label would cost and what its purchase would need, computed as the
 * purchase will recompute it. Writes nothing; reads the carrier's rate and
 * balance once each, outside any transaction.
 *
 * 400 for a line that is not a PRODUCT line of the record, a preset that is
 * not active, a carrier or service not configured, or lines that differ from
 * the named fulfillment's; 404 for an unknown record or fulfillment; a rate
 * the carrier could not give is 503 PROVIDER_UNAVAILABLE, one it refused for
 * another reason than route or package 502 PROVIDER_ERROR. Everything else
 * that stops a purchase is a blocker in the `200`.
 */
export async function quoteShippingLabel(
  db: Kysely<Database>,
  ctx: LabelQuoteContext,
  input: ShippingLabelQuoteInput,
): Promise<ShippingLabelQuote> {
  return (await evaluateLabelSelection(db, ctx, input)).quote;
}

/** What the purchase needs beyond the quote: the resolved record and what the carrier is asked to sell. */
export interface LabelSelection {
  quote: ShippingLabelQuote;
  recordId: string;
  /** The package as rated, stored with the purchase for the fulfillment it labels. */
  package: FulfillmentPackageRead;
  /** The carrier request (absent when an address is missing). */
  rateRequest: RateRequest | null;
  /** The provider balance the quote read, null when it could not. */
  balanceInCents: number | null;
}

/**
 * The quote's whole computation, shared by the purchase (its steps 2 to 5),
 * which recomputes the selection exactly as the quote did.
 */
export async function evaluateLabelSelection(
  db: Kysely<Database>,
  ctx: LabelQuoteContext,
  input: ShippingLabelQuoteInput,
): Promise<LabelSelection> {
  const { organizationId, carrier } = ctx;
  // A server without a carrier (docs/operations.md, "Sandbox providers in production").
  if (carrier.services().length === 0)
    throw new AppError(
      'PROVIDER_UNAVAILABLE',
      'No carrier is configured on this server; no label can be bought',
    );
  const service = carrier.services().find((candidate) => candidate.code === input.service);
  const carrierIssues = [
    ...(input.carrier === carrier.carrier
      ? []
      : [{ path: 'carrier', message: 'is not a configured carrier' }]),
    ...(service ? [] : [{ path: 'service', message: `is not a service of ${carrier.carrier}` }]),
  ];
  if (carrierIssues.length > 0) throw AppError.validation(carrierIssues);

  const recordId = await resolveRecordId(db, organizationId, input.orderId);
  const [record, order, lines, settings, openPurchases] = await Promise.all([
    db
      .selectFrom('sales_records')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', recordId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('sales_record_id', '=', recordId)
      .executeTakeFirst(),
    db
      .selectFrom('sales_record_lines')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('sales_record_id', '=', recordId)
      .execute(),
    labelSettingsOf(db, organizationId),
    db
      .selectFrom('label_purchases')
      .select(['id', 'fulfillment_id', 'lines'])
      .where('organization_id', '=', organizationId)
      .where('sales_record_id', '=', recordId)
      .where('status', 'in', ['PENDING', 'UNCERTAIN'])
      .execute(),
  ]);

  const byId = new Map(lines.map((row) => [row.id, row]));
  const lineIssues = input.lines.flatMap((line, index) =>
    byId.get(line.lineId)?.type === 'PRODUCT'
      ? []
      : [{ path: `lines.${index}.lineId`, message: 'does not name a PRODUCT line of this order' }],
  );
  if (lineIssues.length > 0) throw AppError.validation(lineIssues);

  const blockers = new Set<LabelBlocker>();
  if (unfulfillableReason({ record, order: order ?? null }) !== null) blockers.add('ORDER_NOT_FULFILLABLE');

  if (input.fulfillmentId !== undefined) {
    const fulfillment = await db
      .selectFrom('fulfillments')
      .select(['id', 'status'])
      .where('organization_id', '=', organizationId)
      .where('sales_record_id', '=', recordId)
      .where('id', '=', input.fulfillmentId)
      .executeTakeFirst();
    if (!fulfillment) throw AppError.notFound('Fulfillment not found');
    const [fulfillmentLines, postages] = await Promise.all([
      db
        .selectFrom('fulfillment_lines')
        .select(['line_id', 'quantity'])
        .where('organization_id', '=', organizationId)
        .where('fulfillment_id', '=', fulfillment.id)
        .execute(),
      db
        .selectFrom('fulfillment_postages')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('fulfillment_id', '=', fulfillment.id)
        .execute(),
    ]);
    const requested = new Map(input.lines.map((line) => [line.lineId, line.quantity]));
    const sameLines =
      fulfillmentLines.length === requested.size &&
      fulfillmentLines.every((line) => requested.get(line.line_id) === line.quantity);
    if (!sameLines)
      throw AppError.validation([{ path: 'lines', message: "must equal the fulfillment's lines" }]);
    const labelable =
      fulfillment.status === 'PLANNED' ||
      (fulfillment.status === 'READY' && currentPostage(postages) === undefined);
    if (!labelable) blockers.add('FULFILLMENT_NOT_LABELABLE');
  } else {
    // A planned fulfillment's units are allocated to it already; new lines need units left.
    const short = input.lines.some((line) => {
      const row = byId.get(line.lineId)!;
      return line.quantity > row.quantity - row.shipped_quantity - row.allocated_quantity;
    });
    if (short) blockers.add('LINES_UNAVAILABLE');
  }

  const requestedIds = new Set(input.lines.map((line) => line.lineId));
  const held = openPurchases.some(
    (purchase) =>
      (input.fulfillmentId !== undefined && purchase.fulfillment_id === input.fulfillmentId) ||
      purchase.lines.some((line) => requestedIds.has(line.lineId)),
  );
  if (held) blockers.add('LINES_HELD_BY_UNSETTLED_PURCHASE');

  const shipFrom = settings.shipFrom;
  const shipTo = shipToOf(record.shipping_address);
  if (!shipFrom) blockers.add('SHIP_FROM_ADDRESS_MISSING');
  if (!shipTo) blockers.add('SHIP_TO_ADDRESS_MISSING');

  // The package as rated (as a planned fulfillment stores it), and the proven fit it is compared with.
  const { tareWeightGrams, ...resolved } = await resolvePackage(db, organizationId, input.package);
  const preset =
    resolved.boxPresetId === null
      ? null
      : {
          id: resolved.boxPresetId,
          revision: resolved.boxPresetRevision!,
          tareWeightGrams: tareWeightGrams!,
        };
  const outer = { lengthMm: resolved.lengthMm, widthMm: resolved.widthMm, heightMm: resolved.heightMm };
  const loadedWeightGrams = input.package.loadedWeightGrams;
  const recommendation = await recommendPackageForLines(db, organizationId, recordId, input.lines);
  const recommendedBoxPresetId = recommendation.recommendation?.boxPresetId ?? null;
  const catalogWeightGrams = recommendation.catalogWeightGrams;

  let rate: Rate | null = null;
  const rateRequest: RateRequest | null =
    shipFrom && shipTo
      ? {
          service: input.service,
          parcel: { ...outer, weightGrams: loadedWeightGrams } satisfies CarrierParcel,
          shipFrom,
          shipTo,
        }
      : null;
  if (rateRequest) {
    const account = { organizationId, currency: settings.currency };
    const answer = await carrier.rate(account, rateRequest);
    if (answer.kind === 'UNAVAILABLE' || answer.kind === 'UNCERTAIN')
      throw new AppError('PROVIDER_UNAVAILABLE', 'The carrier could not rate the label now; retry');
    if (answer.kind === 'REJECTED') {
      if (!RATE_BLOCKERS.has(answer.providerCode))
        throw new AppError('PROVIDER_ERROR', 'The carrier refused to rate the label', {
          providerCode: answer.providerCode,
        });
      blockers.add(answer.providerCode as LabelBlocker);
    } else rate = answer.value;
  }

  const decision = classifyLabel({
    blockers: [...blockers].map((code) => ({ code, message: BLOCKER_MESSAGES[code] })),
    chargeInCents: rate?.chargeInCents ?? null,
    collectedShippingInCents: record.shipping_in_cents,
    isPackageOverride: preset === null || preset.id !== recommendedBoxPresetId,
    isWeightBelowCatalog:
      catalogWeightGrams !== null && loadedWeightGrams < catalogWeightGrams + (preset?.tareWeightGrams ?? 0),
  });

  const openClaims = await openClaimsInCents(db, organizationId);
  const balance = rate ? await carrier.balance({ organizationId, currency: settings.currency }) : null;

  const fingerprintPackage: FingerprintSelection['package'] = preset
    ? { boxPresetId: preset.id, boxPresetRevision: preset.revision, ...outer }
    : outer;
  const quote: ShippingLabelQuote = {
    selectionQuoteFingerprint:
      rate && shipFrom && shipTo
        ? selectionQuoteFingerprint({
            organizationId,
            recordId,
            fulfillmentId: input.fulfillmentId ?? null,
            lines: input.lines,
            package: fingerprintPackage,
            loadedWeightGrams,
            carrier: carrier.carrier,
            service: input.service,
            shipFrom,
            shipTo,
            chargeInCents: rate.chargeInCents,
            currency: rate.currency,
            acknowledgementsRequired: decision.acknowledgementsRequired,
            overrideReasonRequired: decision.overrideReasonRequired,
            spendReasonRequired: decision.spendReasonRequired,
          })
        : null,
    carrier: carrier.carrier,
    service: input.service,
    serviceName: service!.name,
    chargeInCents: rate?.chargeInCents ?? null,
    currency: rate?.currency ?? null,
    billableWeightGrams: rate?.billableWeightGrams ?? null,
    package: {
      source: preset ? 'PRESET' : 'CUSTOM',
      boxPresetId: preset?.id ?? null,
      boxPresetRevision: preset?.revision ?? null,
      outer,
      loadedWeightGrams,
      catalogWeightGrams,
      recommendedBoxPresetId,
    },
    funding: fundingOf(balance, openClaims, rate?.chargeInCents ?? null),
    decision,
  };
  return {
    quote,
    recordId,
    package: {
      boxPresetId: preset?.id ?? null,
      boxPresetRevision: preset?.revision ?? null,
      ...outer,
      loadedWeightGrams,
    },
    rateRequest,
    balanceInCents: balance?.kind === 'OK' ? balance.value.balanceInCents : null,
  };
}
