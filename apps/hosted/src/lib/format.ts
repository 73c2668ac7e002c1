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

/**
 * A moment with its zone named ("Nov 29, 2026, 7:05 AM UTC"), so a time is never read in the wrong
 * zone: a booking's in the service's zone (its wall-clock times), everything else in the browser's.
 * Intl allows no `timeZoneName` with `dateStyle`, hence the parts.
 */
export function formatDateTime(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone === undefined ? {} : { timeZone }),
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
