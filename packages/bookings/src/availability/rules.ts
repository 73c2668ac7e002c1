import type { CheckoutTerms } from '../pricing/price.ts';
import { addLocalDays, epochMinutesToLocal } from '../time/zone.ts';
import type { BookingRequirement } from './assign.ts';
import {
  type CompiledHours,
  compileHours,
  isHandoverWithinHours,
  isWithinHours,
  type OpenTime,
  openTime,
  overlapsClosedWindow,
} from './hours.ts';
import type { Pricing, ServiceRules } from './schemas.ts';

/** What availability reads of a service: its rules, requirements and the terms its prices need. */
export interface BookableService extends ServiceRules {
  requirements: readonly BookingRequirement[];
  pricing?: Pricing | null | undefined;
  checkout: CheckoutTerms;
  /** `checkoutSettings.currency` of the tenant. */
  currency: string;
}

/** Why an interval is not offered now: a hold's `details.reason`, a search's filter. */
export type UnavailableReason = 'OUTSIDE_HOURS' | 'CLOSED' | 'LEAD_TIME' | 'MAX_ADVANCE';

/**
 * The time rules of a service over a span of local days, compiled once: the
 * search asks it for every candidate, a hold for its one interval.
 */
export class TimeRules {
  private readonly hours: CompiledHours;
  private readonly open: OpenTime;
  private openIgnoringClosures: OpenTime | null = null;
  private readonly earliestStart: number;
  private readonly latestStartExclusive: number;
  private readonly nowMinute: number;

  /**
   * `fromMinute` and `toMinute` bound the instants the intervals asked about
   * start and end at (epoch minutes); `nowMs` is the clock in milliseconds.
   */
  constructor(
    private readonly service: Pick<BookableService, 'periodMode' | 'timezone' | 'availability'>,
    nowMs: number,
    private readonly fromMinute: number,
    private readonly toMinute: number,
  ) {
    this.hours = compileHours(service.timezone, service.availability);
    this.open =
      service.periodMode === 'FIXED_SLOT'
        ? { starts: [], ends: [] }
        : openTime(this.hours, ...this.daySpan());
    this.nowMinute = nowMs / 60_000;
    this.earliestStart = this.nowMinute + service.availability.leadTimeMinutes;
    const wholeNow = Math.floor(this.nowMinute);
    this.latestStartExclusive =
      addLocalDays(service.timezone, wholeNow, service.availability.maxAdvanceDays) +
      (this.nowMinute - wholeNow);
  }

  private daySpan(): [number, number] {
    return [
      epochMinutesToLocal(this.service.timezone, this.fromMinute).day - 1,
      epochMinutesToLocal(this.service.timezone, this.toMinute).day + 1,
    ];
  }

  /** `CLOSED_DATE` of the start's date or an overlapping `CLOSED_WINDOW` removes a fixed slot. */
  private isFixedSlotClosed(start: number, end: number): boolean {
    const startDay = epochMinutesToLocal(this.service.timezone, start).day;
    return this.hours.closedDates.has(startDay) || overlapsClosedWindow(this.hours, start, end);
  }

  private meetsHoursPolicy(open: OpenTime, start: number, end: number): boolean {
    return this.service.availability.hoursPolicy === 'HANDOVER_WITHIN_HOURS'
      ? isHandoverWithinHours(open, start, end)
      : isWithinHours(open, start, end);
  }

  /** The hours part only: whether `[start, end)` lies in open time (fixed slots: is not closed). */
  isOpen(start: number, end: number): boolean {
    if (this.service.periodMode === 'FIXED_SLOT') return !this.isFixedSlotClosed(start, end);
    return this.meetsHoursPolicy(this.open, start, end);
  }

  /** A slot starts at or after now + lead time, and after now. */
  private meetsLeadTime(start: number): boolean {
    return start >= this.earliestStart && start > this.nowMinute;
  }

  /** The lead time and the maximum advance (before now + that many local days). */
  isBookableFromNow(start: number): boolean {
    return this.meetsLeadTime(start) && start < this.latestStartExclusive;
  }

  /** The first rule `[start, end)` breaks (hours, lead time, maximum advance), or null when it is offered. */
  failure(start: number, end: number): UnavailableReason | null {
    if (!this.isOpen(start, end)) {
      if (this.service.periodMode === 'FIXED_SLOT') return 'CLOSED';
      this.openIgnoringClosures ??= openTime(this.hours, ...this.daySpan(), true);
      return this.meetsHoursPolicy(this.openIgnoringClosures, start, end) ? 'CLOSED' : 'OUTSIDE_HOURS';
    }
    if (!this.meetsLeadTime(start)) return 'LEAD_TIME';
    if (start >= this.latestStartExclusive) return 'MAX_ADVANCE';
    return null;
  }
}

/**
 * Whether one interval is offered now as far as the time rules go (hours,
 * closures, lead time, maximum advance), for holds: null when it is,
 * else the reason for `409 BOOKING_SLOT_UNAVAILABLE`. Its shape (grid,
 * duration, fixed slot) is `checkIntervalShape`'s, capacity the claims'.
 */
export function unavailableReason(
  service: Pick<BookableService, 'periodMode' | 'timezone' | 'availability'>,
  now: Date,
  startsAt: number,
  endsAt: number,
): UnavailableReason | null {
  return new TimeRules(service, now.getTime(), startsAt, endsAt).failure(startsAt, endsAt);
}
