import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../test/organizations.ts';
import { getOnboarding } from './get-onboarding.ts';
import { updateOnboardingStepInputSchema } from './schemas.ts';
import { updateOnboardingStep } from './update-onboarding-step.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');
const owner = { userId: 'usr_onboarding_owner', email: 'owner@shop.example' };
const admin = { userId: 'usr_onboarding_admin', email: 'admin@shop.example' };

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const organization = () => insertOrganization(handle.db, 'onboarding-write');

const toggle = (organizationId: string, stepKey: string, completed: boolean, actor = owner) =>
  updateOnboardingStep(handle.db, { organizationId, actor, at: clock.now() }, { stepKey, completed });

const rowOf = (organizationId: string, stepKey: string) =>
  handle.db
    .selectFrom('onboarding_steps')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('step_key', '=', stepKey)
    .executeTakeFirst();

const auditsOf = (organizationId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('action', 'like', 'onboarding.%')
    .orderBy('created_at')
    .execute();

describe('updateOnboardingStep', () => {
  it('completes an open step: stamps completedAt and completedBy and audits onboarding.step_completed', async () => {
    const organizationId = await organization();
    await getOnboarding(handle.db, organizationId, clock.now());
    clock.advance(60_000);

    const step = await toggle(organizationId, 'business_profile', true);

    expect(step).toEqual({
      key: 'business_profile',
      title: 'Add your business details',
      description: expect.any(String),
      completed: true,
      completedAt: clock.now().toISOString(),
      completedBy: owner.userId,
    });
    expect(await rowOf(organizationId, 'business_profile')).toMatchObject({
      completed_at: clock.now(),
      completed_by: owner.userId,
      updated_at: clock.now(),
    });
    const audits = await auditsOf(organizationId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: 'onboarding.step_completed',
      actor_user_id: owner.userId,
      actor_email: owner.email,
      target_type: 'onboarding_step',
      target_id: 'business_profile',
      created_at: clock.now(),
    });
    expect(audits[0]!.metadata).toEqual({ stepKey: 'business_profile' });
  });

  it('reopens a completed step: clears both fields and audits onboarding.step_reopened', async () => {
    const organizationId = await organization();
    await toggle(organizationId, 'verify_email', true);
    clock.advance(60_000);

    const step = await toggle(organizationId, 'verify_email', false, admin);

    expect(step).toMatchObject({
      key: 'verify_email',
      completed: false,
      completedAt: null,
      completedBy: null,
    });
    expect(await rowOf(organizationId, 'verify_email')).toMatchObject({
      completed_at: null,
      completed_by: null,
    });
    const audits = await auditsOf(organizationId);
    expect(audits.map((audit) => [audit.action, audit.actor_user_id, audit.metadata])).toEqual([
      ['onboarding.step_completed', owner.userId, { stepKey: 'verify_email' }],
      ['onboarding.step_reopened', admin.userId, { stepKey: 'verify_email' }],
    ]);
  });

  it('creates a missing row in the requested state', async () => {
    const organizationId = await organization();

    const completed = await toggle(organizationId, 'first_product', true);
    const open = await toggle(organizationId, 'invite_team', false);

    expect(completed.completed).toBe(true);
    expect(open.completed).toBe(false);
    expect(await rowOf(organizationId, 'first_product')).toMatchObject({
      position: 2,
      completed_by: owner.userId,
    });
    expect(await rowOf(organizationId, 'invite_team')).toMatchObject({ position: 6, completed_at: null });
    // Created open is no transition: only the completion is audited.
    expect((await auditsOf(organizationId)).map((audit) => audit.action)).toEqual([
      'onboarding.step_completed',
    ]);
  });

  it('answers a step already in the requested state unchanged, without an audit record', async () => {
    const organizationId = await organization();
    await toggle(organizationId, 'shipping_zones', true);
    const completedAt = clock.now().toISOString();
    clock.advance(60_000);

    const again = await toggle(organizationId, 'shipping_zones', true, admin);
    const stillOpen = await toggle(organizationId, 'checkout_settings', false);
    const stillOpenAgain = await toggle(organizationId, 'checkout_settings', false);

    expect(again).toMatchObject({ completed: true, completedAt, completedBy: owner.userId });
    expect(stillOpen.completed).toBe(false);
    expect(stillOpenAgain.completed).toBe(false);
    expect(await auditsOf(organizationId)).toHaveLength(1);
  });

  it('answers RESOURCE_NOT_FOUND for a key outside the canonical list and writes nothing', async () => {
    const organizationId = await organization();
    for (const stepKey of ['unknown_step', 'BUSINESS_PROFILE', 'business-profile', '']) {
      const failure = await toggle(organizationId, stepKey, true).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppError);
      expect((failure as AppError).code).toBe('RESOURCE_NOT_FOUND');
    }
    const rows = await handle.db
      .selectFrom('onboarding_steps')
      .select('step_key')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(rows).toEqual([]);
    expect(await auditsOf(organizationId)).toEqual([]);
  });

  it('changes only its own organization', async () => {
    const mine = await organization();
    const theirs = await organization();
    await getOnboarding(handle.db, theirs, clock.now());

    await toggle(mine, 'email_templates', true);

    expect(await rowOf(theirs, 'email_templates')).toMatchObject({ completed_at: null });
    expect(await auditsOf(theirs)).toEqual([]);
  });

  for (const rowExists of [true, false]) {
    it(`applies one completion when 10 members complete the same step at once (row ${rowExists ? 'present' : 'missing'})`, async () => {
      const organizationId = await organization();
      if (rowExists) await getOnboarding(handle.db, organizationId, clock.now());
      const actors = Array.from({ length: 10 }, (_, index) => ({
        userId: `usr_racer_${index}`,
        email: `racer${index}@shop.example`,
      }));

      const answers = await Promise.all(
        actors.map((actor) => toggle(organizationId, 'invite_team', true, actor)),
      );

      const audits = await auditsOf(organizationId);
      expect(audits).toHaveLength(1);
      const winner = audits[0]!.actor_user_id;
      for (const answer of answers) expect(answer).toMatchObject({ completed: true, completedBy: winner });
      expect(await rowOf(organizationId, 'invite_team')).toMatchObject({ completed_by: winner });
    });
  }
  it("runs in the caller's transaction when handed one, and rolls back with it", async () => {
    const organizationId = await organization();

    const rolledBack = handle.db.transaction().execute(async (trx) => {
      await updateOnboardingStep(
        trx,
        { organizationId, actor: owner, at: clock.now() },
        { stepKey: 'verify_email', completed: true },
      );
      throw new Error('caller aborts');
    });

    await expect(rolledBack).rejects.toThrow('caller aborts');
    expect(await rowOf(organizationId, 'verify_email')).toBeUndefined();
    expect(await auditsOf(organizationId)).toEqual([]);
  });
});

describe('updateOnboardingStepInputSchema', () => {
  it('takes a bounded step key and a boolean completed, nothing else', () => {
    expect(updateOnboardingStepInputSchema.parse({ stepKey: 'first_product', completed: true })).toEqual({
      stepKey: 'first_product',
      completed: true,
    });
    for (const bad of [
      { stepKey: 'first_product' },
      { stepKey: 'first_product', completed: 'true' },
      { stepKey: 'first_product', completed: 1 },
      { stepKey: 'first_product', completed: null },
      { stepKey: 'first_product', completed: true, completedAt: '2026-01-01T00:00:00Z' },
      { stepKey: 'x'.repeat(101), completed: true },
    ]) {
      expect(updateOnboardingStepInputSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
