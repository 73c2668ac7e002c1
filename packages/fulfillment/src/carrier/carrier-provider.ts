/**
 * The carrier behind shipping labels (docs/fulfillment.md "Carrier"): one
 * interface, chosen by CARRIER_PROVIDER. It is never called inside a
 * database transaction; every call has the deadline CARRIER_TIMEOUT_MS and
 * answers one of four kinds, never throws:
 *
 * - `OK`: the carrier answered, with the value;
 * - `REJECTED`: a definitive refusal, with the carrier's code;
 * - `UNAVAILABLE`: nothing was sent (the carrier could not be reached);
 * - `UNCERTAIN`: sent, no answer (a timeout or reset after sending, an
 *   ambiguous 5xx): a spend may or may not have happened.
 */
export type CarrierResult<T> =
  | { kind: 'OK'; value: T }
  | { kind: 'REJECTED'; providerCode: string; message: string }
  | { kind: 'UNAVAILABLE'; message: string }
  | { kind: 'UNCERTAIN'; message: string };

/** Whose carrier account a call is for: the tenant, and the currency its account opens in. */
export interface CarrierAccount {
  organizationId: string;
  currency: string;
}

export interface CarrierService {
  code: string;
  name: string;
  domesticOnly: boolean;
  /** Billable weight this service carries at most, in grams. */
  maxBillableGrams: number;
  /** The longest outer side this service carries, in millimetres. */
  maxLengthMm: number;
}

/** A postal address as the carrier reads it. */
export interface CarrierAddress {
  name: string;
  company?: string | undefined;
  line1: string;
  line2?: string | undefined;
  city: string;
  state?: string | undefined;
  postalCode: string;
  country: string;
  phone?: string | undefined;
}

/** The parcel as rated: outer dimensions and loaded weight. */
export interface CarrierParcel {
  lengthMm: number;
  widthMm: number;
  heightMm: number;
  weightGrams: number;
}

export interface RateRequest {
  service: string;
  parcel: CarrierParcel;
  shipFrom: CarrierAddress;
  shipTo: CarrierAddress;
}

export interface Rate {
  service: string;
  chargeInCents: number;
  currency: string;
  billableWeightGrams: number;
}

export interface CarrierBalance {
  balanceInCents: number;
  currency: string;
}

export interface PurchaseRequest extends RateRequest {
  /** Our purchase id (`lbp_…`): the carrier's idempotency key where it has one. */
  clientReference: string;
}

/** A label the carrier sold; what later calls name it by. */
export interface CarrierLabel {
  trackingNumber: string;
  trackingUrl: string;
  clientReference: string;
  service: string;
  chargeInCents: number;
  currency: string;
}

export type FoundPurchase =
  | { status: 'PURCHASED'; label: CarrierLabel }
  /** Authoritative: the carrier has no purchase under this reference. */
  | { status: 'NOT_FOUND' }
  | { status: 'UNKNOWN' };

export type LabelStatus = 'ACTIVE' | 'VOID_PENDING' | 'VOIDED' | 'VOID_REJECTED';

export interface LabelState {
  status: LabelStatus;
  /** The carrier's own word for it, kept as evidence. */
  rawStatus: string;
  /** The refund recorded with a void, when there is one. */
  refundAmountInCents: number | null;
}

/** What a label reference needs to carry for the calls after a purchase. */
export type LabelReference = Pick<CarrierLabel, 'trackingNumber'>;

export interface CarrierProvider {
  /** The carrier's name in responses and postage (`sandbox`). */
  readonly carrier: string;
  services(): readonly CarrierService[];
  rate(account: CarrierAccount, request: RateRequest): Promise<CarrierResult<Rate>>;
  balance(account: CarrierAccount): Promise<CarrierResult<CarrierBalance>>;
  purchase(account: CarrierAccount, request: PurchaseRequest): Promise<CarrierResult<CarrierLabel>>;
  findPurchase(account: CarrierAccount, clientReference: string): Promise<CarrierResult<FoundPurchase>>;
  /** At most once per shipment cancellation: the caller keeps that promise. */
  requestVoid(account: CarrierAccount, label: LabelReference): Promise<CarrierResult<LabelState>>;
  readLabel(account: CarrierAccount, label: LabelReference): Promise<CarrierResult<LabelState>>;
  labelDocument(account: CarrierAccount, label: LabelReference): Promise<CarrierResult<Uint8Array>>;
}

/**
 * Thrown by an implementation that knows its request never left (a refused
 * connection, a transaction of its own rolled back): the guard answers
 * `UNAVAILABLE`. Anything else thrown is `UNCERTAIN`: it may have been sent.
 */
export class CarrierNotSentError extends Error {
  override name = 'CarrierNotSentError';
}
