import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../test/organizations.ts';
import { getOnboarding } from './get-onboarding.ts';
import { ONBOARDING_STEPS } from './steps.ts';
import { updateOnboardingStep } from './update-onboarding-step.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');
const actor = { userId: 'usr_onboarding_owner', email: 'owner@shop.example' };

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const organization = () => insertOrganization(handle.db, 'onboarding-read');

const rowsOf = (organizationId: string) =>
  handle.db
    .selectFrom('onboarding_steps')
    .select(['step_key', 'position', 'completed_at', 'completed_by'])
    .where('organization_id', '=', organizationId)
    .orderBy('position')
    .execute();

const complete = (organizationId: string, stepKey: string, completed = true) =>
  updateOnboardingStep(handle.db, { organizationId, actor, at: clock.now() }, { stepKey, completed });

describe('ONBOARDING_STEPS', () => {
  it('holds the named steps once each, with a title and a description', () => {
    const keys = ONBOARDING_STEPS.map((step) => step.key);
    expect(keys).toEqual(expect.arrayContaining(['business_profile', 'first_product', 'verify_email']));
    expect(new Set(keys).size).toBe(keys.length);
    for (const step of ONBOARDING_STEPS) {
      expect(step.key).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(step.title.length).toBeGreaterThan(0);
      expect(step.description.length).toBeGreaterThan(0);
    }
  });
});

describe('getOnboarding', () => {
  it('creates every step open, in canonical order, on the first read', async () => {
    const organizationId = await organization();

    const onboarding = await getOnboarding(handle.db, organizationId, clock.now());

    expect(onboarding.steps).toEqual(
      ONBOARDING_STEPS.map((step) => ({
        key: step.key,
        title: step.title,
        description: step.description,
        completed: false,
        completedAt: null,
        completedBy: null,
      })),
    );
    expect(onboarding.summary).toEqual({
      totalSteps: ONBOARDING_STEPS.length,
      completedSteps: 0,
      percent: 0,
    });
    expect(await rowsOf(organizationId)).toEqual(
      ONBOARDING_STEPS.map((step, position) => ({
        step_key: step.key,
        position,
        completed_at: null,
        completed_by: null,
      })),
    );
  });

  it('creates only the missing steps and keeps a step completed before the first read', async () => {
    const organizationId = await organization();
    await complete(organizationId, 'first_product');
    expect(await rowsOf(organizationId)).toHaveLength(1);

    const onboarding = await getOnboarding(handle.db, organizationId, clock.now());

    expect(onboarding.steps.map((step) => step.key)).toEqual(ONBOARDING_STEPS.map((step) => step.key));
    expect(onboarding.steps.find((step) => step.key === 'first_product')).toMatchObject({
      completed: true,
      completedAt: clock.now().toISOString(),
      completedBy: actor.userId,
    });
    expect(onboarding.summary.completedSteps).toBe(1);
    const rows = await rowsOf(organizationId);
    expect(rows).toHaveLength(ONBOARDING_STEPS.length);
    expect(rows.map((row) => row.step_key)).toEqual(ONBOARDING_STEPS.map((step) => step.key));
  });

  it('rounds percent down, so that 100 means every step is completed', async () => {
    const organizationId = await organization();
    const total = ONBOARDING_STEPS.length;
    const seen: number[] = [];
    for (const [index, step] of ONBOARDING_STEPS.entries()) {
      await complete(organizationId, step.key);
      const { summary } = await getOnboarding(handle.db, organizationId, clock.now());
      expect(summary).toEqual({
        totalSteps: total,
        completedSteps: index + 1,
        percent: Math.floor(((index + 1) * 100) / total),
      });
      seen.push(summary.percent);
    }
    expect(seen.at(-1)).toBe(100);
    expect(seen.slice(0, -1).every((percent) => Number.isInteger(percent) && percent < 100)).toBe(true);
  });

  it('reads only its own organization', async () => {
    const mine = await organization();
    const theirs = await organization();
    await complete(theirs, 'verify_email');

    const onboarding = await getOnboarding(handle.db, mine, clock.now());

    expect(onboarding.summary.completedSteps).toBe(0);
  });

  it('never duplicates a step under 20 concurrent first reads', async () => {
    const organizationId = await organization();

    const reads = await Promise.all(
      Array.from({ length: 20 }, () => getOnboarding(handle.db, organizationId, clock.now())),
    );

    for (const read of reads) expect(read.steps).toHaveLength(ONBOARDING_STEPS.length);
    const rows = await rowsOf(organizationId);
    expect(rows.map((row) => row.step_key)).toEqual(ONBOARDING_STEPS.map((step) => step.key));
  });
});
