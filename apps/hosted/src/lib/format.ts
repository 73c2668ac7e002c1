import { formatMoney as formatMinorUnits } from '@commerce/core/schemas';
import { currentLocale, setLocale } from '../i18n/index.ts';

/**
 * Every number, amount and date of the pages is written in the store's locale
 * (`public.organization.get`'s `locale`, `en-US` until the store is known), never the browser's:
 * a German store reads `18,00 $` and `29.11.2026` to every shopper, whatever their browser says,
 * and the page's words (the catalogue of the same locale) match its numbers.
 */
export function setStoreLocale(locale: string): void {
  setLocale(locale);
}

/**
 * Money in the tenant's currency and the store's locale. Amounts are integer minor units of the
 * ISO 4217 exponent (core's table, not Intl's display digits), as the service stores them.
 */
export function formatMoney(amountInMinorUnits: number, currency: string): string {
  return formatMinorUnits(amountInMinorUnits, currency, currentLocale());
}

/** A number in the store's locale (`1,234.5`, `1.234,5`). */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat(currentLocale()).format(value);
}

/** A time of day in a zone, in the store's locale ("10:00 AM", "10:00"): the end of an interval. */
export function formatTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(currentLocale(), { timeStyle: 'short', timeZone }).format(new Date(iso));
}

/** "1 hour", "90 minutes", "2 days": a booking's length in the store's locale. */
export function formatDuration(minutes: number): string {
  const unit = (value: number, name: 'day' | 'hour' | 'minute') =>
    new Intl.NumberFormat(currentLocale(), { style: 'unit', unit: name, unitDisplay: 'long' }).format(value);
  if (minutes >= 1440 && minutes % 1440 === 0) return unit(minutes / 1440, 'day');
  if (minutes >= 60 && minutes % 60 === 0) return unit(minutes / 60, 'hour');
  if (minutes > 120) return `${unit(Math.floor(minutes / 60), 'hour')} ${unit(minutes % 60, 'minute')}`;
  return unit(minutes, 'minute');
}

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium' }).format(new Date(iso));
}

/**
 * A moment with its zone named ("Nov 29, 2026, 7:05 AM UTC"), so a time is never read in the wrong
 * zone: a booking's in the service's zone (its wall-clock times), everything else in the browser's
 * (the shopper's clock), written in the store's locale. Intl allows no `timeZoneName` with
 * `dateStyle`, hence the parts.
 */
export function formatDateTime(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(currentLocale(), {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone === undefined ? {} : { timeZone }),
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** "in 3 minutes" for a wait in seconds, in the store's language. */
export function formatWait(seconds: number): string {
  const format = new Intl.RelativeTimeFormat(currentLocale(), { numeric: 'always' });
  if (seconds < 90) return format.format(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 5400) return format.format(Math.ceil(seconds / 60), 'minute');
  return format.format(Math.ceil(seconds / 3600), 'hour');
}
