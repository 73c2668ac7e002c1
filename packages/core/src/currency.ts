/**
 * ISO 4217 minor-unit exponents: every `*InCents` amount is an integer count
 * of minor units of its currency, 10^exponent of them to the major unit
 * (cents for USD, yen for JPY, fils for KWD). This table is the one source of
 * that exponent (docs/checkout.md, "Currencies"): formats, providers and
 * rounding rules read it here.
 *
 * A maintained table rather than `Intl.NumberFormat`'s digits, because ICU
 * follows CLDR's display conventions, which differ from ISO 4217 (Node 20.20's
 * ICU 78 formats HUF, IDR, COP and PKR with no decimals) and change between
 * ICU releases: the meaning of a stored amount must not change with a runtime
 * upgrade. Codes not listed have 2; the few codes ISO 4217 gives no minor unit
 * (XDR, XSU …) are treated as 2, as `Intl` formats them.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

const CURRENCY_CODE = /^[A-Z]{3}$/;

/** The ISO 4217 exponent of an upper-case currency code: 2 for USD, 0 for JPY, 3 for KWD. */
export function currencyExponent(currency: string): number {
  if (!CURRENCY_CODE.test(currency)) throw new TypeError(`Not an upper-case ISO 4217 code: ${currency}`);
  return EXPONENTS[currency] ?? 2;
}

/**
 * An amount in minor units formatted in its currency with exactly its
 * exponent's decimals (email merge values): `$128.00`, `¥1,280`, `KWD 12.345`.
 */
export function formatMoney(amountInMinorUnits: number, currency: string, locale = 'en-US'): string {
  const exponent = currencyExponent(currency);
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  return format.format(amountInMinorUnits / 10 ** exponent);
}
