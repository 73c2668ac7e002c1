import type { BookingStatus } from '@commerce/db';
import { describe, expect, it } from 'vitest';
import {
  bookingActions,
  type CustomerActionDecision,
  type CustomerActionKind,
  type CustomerActionRefusal,
  cutoffInstant,
  decideCustomerAction,
  type PolicySubject,
  requireCustomerAction,
} from './policy.ts';

type Mode = 'SELF_SERVICE' | 'REQUEST' | 'NONE';

const startsAt = new Date('2026-12-10T10:00:00Z');
const endsAt = new Date('2026-12-10T12:00:00Z');
const hour = 3_600_000;

function subject(
  mode: Mode,
  cutoffMinutes: number,
  overrides: Partial<PolicySubject> = {},
  status: BookingStatus = 'CONFIRMED',
): PolicySubject {
  return {
    status,
    startsAt,
    endsAt,
    timezone: 'Europe/Lisbon',
    policies: { cancellation: { mode, cutoffMinutes }, reschedule: { mode, cutoffMinutes } },
    ...overrides,
  };
}

const before = (ms: number) => new Date(startsAt.getTime() - ms);
const apply: CustomerActionDecision = { outcome: 'APPLY' };
const request: CustomerActionDecision = { outcome: 'REQUEST' };
const none = (reason: CustomerActionRefusal): CustomerActionDecision => ({ outcome: 'NONE', reason });

describe('the cancel and reschedule policy table for a CONFIRMED booking (cutoff 24 h)', () => {
  // [mode, instant, expected decision] for both cancel and reschedule.
  const table: [Mode, string, Date, CustomerActionDecision][] = [
    ['SELF_SERVICE', 'well before the cutoff', before(48 * hour), apply],
    ['SELF_SERVICE', 'one minute before the cutoff', before(24 * hour + 60_000), apply],
    ['SELF_SERVICE', 'at the cutoff', before(24 * hour), request],
    ['SELF_SERVICE', 'after the cutoff, before startsAt', before(hour), request],
    ['REQUEST', 'well before the cutoff', before(48 * hour), request],
    ['REQUEST', 'after the cutoff', before(hour), request],
    ['NONE', 'well before the cutoff', before(48 * hour), none('POLICY')],
    ['NONE', 'after the cutoff', before(hour), none('POLICY')],
  ];
  for (const [mode, when, at, expected] of table) {
    for (const kind of ['CANCEL', 'RESCHEDULE'] as CustomerActionKind[]) {
      it(`${mode} ${when}: ${kind} → ${expected.outcome}`, () => {
        expect(decideCustomerAction(subject(mode, 1_440), kind, at)).toEqual(expected);
      });
    }
  }
});

describe('around the policy table', () => {
  const modes: Mode[] = ['SELF_SERVICE', 'REQUEST', 'NONE'];

  it('REQUESTED and PENDING_PAYMENT bookings are always cancelled at once and never rescheduled', () => {
    for (const status of ['REQUESTED', 'PENDING_PAYMENT'] as BookingStatus[]) {
      for (const mode of modes) {
        for (const at of [before(48 * hour), before(hour), new Date(startsAt.getTime() + 60_000)]) {
          expect(decideCustomerAction(subject(mode, 1_440, {}, status), 'CANCEL', at)).toEqual(apply);
          expect(decideCustomerAction(subject(mode, 1_440, {}, status), 'RESCHEDULE', at)).toEqual(
            none('STATUS'),
          );
        }
      }
    }
  });

  it('terminal bookings take no action', () => {
    for (const status of ['DECLINED', 'CANCELLED', 'EXPIRED'] as BookingStatus[]) {
      for (const kind of ['CANCEL', 'RESCHEDULE'] as CustomerActionKind[]) {
        expect(decideCustomerAction(subject('SELF_SERVICE', 0, {}, status), kind, before(48 * hour))).toEqual(
          none('STATUS'),
        );
      }
    }
  });

  it('no customer action at or after endsAt, whatever the status and policy', () => {
    for (const status of ['REQUESTED', 'PENDING_PAYMENT', 'CONFIRMED'] as BookingStatus[]) {
      for (const mode of modes) {
        for (const at of [endsAt, new Date(endsAt.getTime() + hour)]) {
          expect(decideCustomerAction(subject(mode, 0, {}, status), 'CANCEL', at)).toEqual(
            none('BOOKING_ENDED'),
          );
        }
      }
    }
  });

  it('a CONFIRMED booking that has started takes no request (it would be withdrawn at once)', () => {
    const during = new Date(startsAt.getTime() + 30 * 60_000);
    expect(decideCustomerAction(subject('SELF_SERVICE', 0), 'CANCEL', during)).toEqual(
      none('BOOKING_STARTED'),
    );
    expect(decideCustomerAction(subject('REQUEST', 0), 'RESCHEDULE', during)).toEqual(
      none('BOOKING_STARTED'),
    );
    // The policy's refusal comes first.
    expect(decideCustomerAction(subject('NONE', 0), 'CANCEL', during)).toEqual(none('POLICY'));
  });

  it('a pending change request refuses another request but not a self-service cancellation', () => {
    const pending = { hasPendingChangeRequest: true };
    expect(decideCustomerAction(subject('REQUEST', 0, pending), 'CANCEL', before(hour))).toEqual(
      none('CHANGE_REQUEST_PENDING'),
    );
    expect(decideCustomerAction(subject('SELF_SERVICE', 60, pending), 'CANCEL', before(2 * hour))).toEqual(
      apply,
    );
    expect(
      decideCustomerAction(subject('SELF_SERVICE', 60, pending), 'RESCHEDULE', before(30 * 60_000)),
    ).toEqual(none('CHANGE_REQUEST_PENDING'));
  });

  it('a consumed guest token makes every action NONE', () => {
    const actions = bookingActions(subject('SELF_SERVICE', 0, { isTokenConsumed: true }), before(48 * hour));
    expect(actions.cancel).toBe('NONE');
    expect(actions.reschedule).toBe('NONE');
    expect(
      decideCustomerAction(subject('SELF_SERVICE', 0, { isTokenConsumed: true }), 'CANCEL', before(hour)),
    ).toEqual(none('TOKEN_CONSUMED'));
  });

  it('cancel and reschedule follow their own policies; cutoffs are shown for SELF_SERVICE only', () => {
    const mixed: PolicySubject = {
      ...subject('REQUEST', 0),
      policies: {
        cancellation: { mode: 'SELF_SERVICE', cutoffMinutes: 120 },
        reschedule: { mode: 'NONE', cutoffMinutes: 0 },
      },
    };
    expect(bookingActions(mixed, before(3 * hour))).toEqual({
      cancel: 'APPLY',
      reschedule: 'NONE',
      cancelCutoffAt: '2026-12-10T08:00:00.000Z',
      rescheduleCutoffAt: null,
    });
    expect(bookingActions(mixed, before(hour)).cancel).toBe('REQUEST');
    expect(bookingActions(subject('REQUEST', 60), before(3 * hour)).cancelCutoffAt).toBeNull();
    expect(bookingActions(subject('SELF_SERVICE', 60, {}, 'REQUESTED'), before(3 * hour))).toEqual({
      cancel: 'APPLY',
      reschedule: 'NONE',
      cancelCutoffAt: null,
      rescheduleCutoffAt: null,
    });
  });

  it('a cutoff of whole days counts local days across a daylight-saving change', () => {
    // Lisbon leaves summer time on 25 October 2026: 10:00 on the 26th (UTC+0) minus one local day is
    // 10:00 on the 25th (UTC+0 too, after 02:00), and minus two is 10:00 on the 24th (UTC+1).
    const start = new Date('2026-10-26T10:00:00Z');
    expect(cutoffInstant(start, 2 * 1_440, 'Europe/Lisbon').toISOString()).toBe('2026-10-24T09:00:00.000Z');
    expect(cutoffInstant(start, 2 * 1_440 - 1, 'Europe/Lisbon').toISOString()).toBe(
      '2026-10-24T10:01:00.000Z',
    );
    expect(cutoffInstant(start, 0, 'Europe/Lisbon').toISOString()).toBe(start.toISOString());
  });

  it('requireCustomerAction throws 409 INVALID_STATE_TRANSITION with the reason', () => {
    expect(() => requireCustomerAction(subject('NONE', 0), 'CANCEL', before(hour))).toThrow(
      expect.objectContaining({
        code: 'INVALID_STATE_TRANSITION',
        status: 409,
        details: { reason: 'POLICY' },
      }),
    );
    expect(requireCustomerAction(subject('SELF_SERVICE', 0), 'RESCHEDULE', before(hour))).toBe('APPLY');
  });

  it('a booking without stored policies follows the default, REQUEST', () => {
    const bare = { ...subject('NONE', 0), policies: {} as PolicySubject['policies'] };
    expect(decideCustomerAction(bare, 'CANCEL', before(hour))).toEqual(request);
  });
});
