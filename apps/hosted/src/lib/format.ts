import { formatMoney as formatMinorUnits } from '@commerce/core/schemas';

/**
 * Money in the tenant's currency and the customer's locale. Amounts are integer minor units of the
 * ISO 4217 exponent (core's table, not Intl's display digits), as the service stores them.
 */
export function formatMoney(amountInMinorUnits: number, currency: string): string {
  return formatMinorUnits(amountInMinorUnits, currency, navigator.language);
}

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string, timeZone?: string): string {
  if (timeZone === undefined)
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    );
  // A booking's times are the service's wall-clock times, its zone named (Intl allows no
  // `timeZoneName` with `dateStyle`, hence the parts).
  return new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** "in 3 minutes" for a wait in seconds. */
export function formatWait(seconds: number): string {
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'always' });
  if (seconds < 90) return format.format(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 5400) return format.format(Math.ceil(seconds / 60), 'minute');
  return format.format(Math.ceil(seconds / 3600), 'hour');
}

/** `PARTIALLY_SHIPPED` → "Partially shipped". */
export function humanize(value: string): string {
  const words = value.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
