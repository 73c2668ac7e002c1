import { ONBOARDING_STEPS } from '@commerce/admin';
import { PERMISSION_GROUPS } from '@commerce/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import {
  ACTORS,
  type Actor,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  // Staff holding every permission group: onboarding toggles are still Owner and Admin only.
  shop = await createRoleFixture(h, 'onboarding-shop', [...PERMISSION_GROUPS]);
});
afterAll(async () => {
  await h.close();
});

interface Step {
  key: string;
  title: string;
  description: string;
  completed: boolean;
  completedAt: string | null;
  completedBy: string | null;
}
interface Onboarding {
  steps: Step[];
  summary: { totalSteps: number; completedSteps: number; percent: number };
}

const onboardingAudits = (organizationId: string) =>
  h.database.db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'target_type', 'target_id', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('action', 'like', 'onboarding.%')
    .orderBy('created_at')
    .orderBy('id')
    .execute();

const readOnboarding = async (fixture: RoleFixture = shop) =>
  (await (await fixture.call('owner', 'GET', '/merchant/onboarding')).json()) as Onboarding;

describe('GET /merchant/onboarding', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, MEMBER_ACTORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const response = await shop.call(actor, 'GET', '/merchant/onboarding');
      if (status !== 200) {
        await expectError(response, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        return;
      }
      expect(response.status).toBe(200);
      const body = (await response.json()) as Onboarding;
      expect(body.steps.map((step) => step.key)).toEqual(ONBOARDING_STEPS.map((step) => step.key));
      expect(
        body.steps.every((step) => !step.completed && step.completedAt === null && step.completedBy === null),
      ).toBe(true);
      expect(body.summary).toEqual({ totalSteps: ONBOARDING_STEPS.length, completedSteps: 0, percent: 0 });
    });
  }

  it('creates each step once under 20 concurrent first reads', async () => {
    const fresh = await createRoleFixture(h, 'onboarding-fresh');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => fresh.call('staffWithout', 'GET', '/merchant/onboarding')),
    );
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(((await response.json()) as Onboarding).steps).toHaveLength(ONBOARDING_STEPS.length);
    }
    const rows = await h.database.db
      .selectFrom('onboarding_steps')
      .select(['step_key', 'position'])
      .where('organization_id', '=', fresh.organizationId)
      .orderBy('position')
      .execute();
    expect(rows).toEqual(ONBOARDING_STEPS.map((step, position) => ({ step_key: step.key, position })));
  });
});

describe('PATCH /merchant/onboarding/steps/{stepKey}', () => {
  const allowed: readonly Actor[] = ['owner', 'admin'];
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, allowed, 200);
    it(`answers ${status} to ${actor}`, async () => {
      // Each actor toggles its own step, open before the call.
      const stepKey = ONBOARDING_STEPS[ACTORS.indexOf(actor)]!.key;
      h.clock.advance(1000);
      const before = await onboardingAudits(shop.organizationId);

      const response = await shop.call(actor, 'PATCH', `/merchant/onboarding/steps/${stepKey}`, {
        completed: true,
      });

      const step = (await readOnboarding()).steps.find((candidate) => candidate.key === stepKey)!;
      const after = await onboardingAudits(shop.organizationId);
      if (status === 200) {
        expect(response.status).toBe(200);
        const expected = {
          ...step,
          completed: true,
          completedAt: h.clock.now().toISOString(),
          completedBy: shop.users[actor as 'owner'].userId,
        };
        expect(await response.json()).toEqual(expected);
        expect(step).toEqual(expected);
        expect(after.slice(before.length)).toEqual([
          {
            action: 'onboarding.step_completed',
            actor_user_id: shop.users[actor as 'owner'].userId,
            target_type: 'onboarding_step',
            target_id: stepKey,
            metadata: { stepKey },
          },
        ]);
      } else {
        await expectError(response, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        expect(step.completed).toBe(false);
        expect(after).toHaveLength(before.length);
      }
    });
  }

  it('reopens a completed step, clearing completedAt and completedBy, and audits it', async () => {
    const stepKey = 'business_profile';
    h.clock.advance(1000);
    await shop.call('owner', 'PATCH', `/merchant/onboarding/steps/${stepKey}`, { completed: true });
    h.clock.advance(1000);

    const response = await shop.call('admin', 'PATCH', `/merchant/onboarding/steps/${stepKey}`, {
      completed: false,
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      key: stepKey,
      completed: false,
      completedAt: null,
      completedBy: null,
    });
    const last = (await onboardingAudits(shop.organizationId)).at(-1);
    expect(last).toMatchObject({
      action: 'onboarding.step_reopened',
      actor_user_id: shop.users.admin.userId,
      metadata: { stepKey },
    });
    expect(last!.metadata).toEqual({ stepKey });
  });

  it('answers 200 unchanged, with no audit record, for a step already in the requested state', async () => {
    const stepKey = 'checkout_settings';
    h.clock.advance(1000);
    const first = await (
      await shop.call('owner', 'PATCH', `/merchant/onboarding/steps/${stepKey}`, { completed: true })
    ).json();
    const audits = await onboardingAudits(shop.organizationId);
    h.clock.advance(60_000);

    const again = await shop.call('admin', 'PATCH', `/merchant/onboarding/steps/${stepKey}`, {
      completed: true,
    });

    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first);
    expect(await onboardingAudits(shop.organizationId)).toHaveLength(audits.length);
  });

  it('reports progress in the summary, rounded down', async () => {
    const fresh = await createRoleFixture(h, 'onboarding-progress');
    for (const [index, step] of ONBOARDING_STEPS.entries()) {
      await fresh.call('owner', 'PATCH', `/merchant/onboarding/steps/${step.key}`, { completed: true });
      const { summary } = await readOnboarding(fresh);
      expect(summary).toEqual({
        totalSteps: ONBOARDING_STEPS.length,
        completedSteps: index + 1,
        percent: Math.floor(((index + 1) * 100) / ONBOARDING_STEPS.length),
      });
    }
    expect((await readOnboarding(fresh)).summary.percent).toBe(100);
  });

  it('answers 404 RESOURCE_NOT_FOUND in the error envelope for an unknown step key', async () => {
    for (const stepKey of ['no_such_step', 'BUSINESS_PROFILE', 'business-profile']) {
      const error = await expectError(
        await shop.call('owner', 'PATCH', `/merchant/onboarding/steps/${stepKey}`, { completed: true }),
        404,
        'RESOURCE_NOT_FOUND',
      );
      expect(error.message).not.toContain(stepKey);
    }
    const rows = await h.database.db
      .selectFrom('onboarding_steps')
      .select('step_key')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(rows.map((row) => row.step_key).sort()).toEqual(ONBOARDING_STEPS.map((step) => step.key).sort());
  });

  it('answers 400 VALIDATION_FAILED for a body other than { completed: boolean }', async () => {
    const path = '/merchant/onboarding/steps/first_product';
    const cases: [unknown, string][] = [
      [{ completed: 'true' }, 'completed'],
      [{ completed: null }, 'completed'],
      [{}, 'completed'],
      [undefined, 'completed'],
    ];
    for (const [body, issuePath] of cases) {
      const error = await expectError(
        await shop.call('owner', 'PATCH', path, body),
        400,
        'VALIDATION_FAILED',
      );
      expect(error.details?.issues?.map((issue) => issue.path)).toContain(issuePath);
    }
    const extra = await expectError(
      await shop.call('owner', 'PATCH', path, { completed: true, completedBy: 'usr_someone' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(extra.details?.issues?.[0]?.message).toContain('completedBy');
  });

  it("toggles only the caller's organization", async () => {
    const other = await createRoleFixture(h, 'onboarding-other');
    await expectError(
      await h.app.request('/api/v1/merchant/onboarding/steps/invite_team', {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${shop.users.owner.token}`,
          'x-organization-slug': other.slug,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ completed: true }),
      }),
      403,
      'FORBIDDEN',
    );
    await other.call('owner', 'PATCH', '/merchant/onboarding/steps/email_templates', { completed: true });
    const mine = await readOnboarding();
    expect(mine.steps.find((step) => step.key === 'email_templates')?.completed).toBe(false);
    expect((await readOnboarding(other)).summary.completedSteps).toBe(1);
  });
});

describe('OpenAPI document', () => {
  it('documents both onboarding routes under their tag', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags: string[]; summary: string; description: string }>>;
    };
    expect(document.paths['/merchant/onboarding']?.get?.tags).toEqual(['Merchant: onboarding']);
    const patch = document.paths['/merchant/onboarding/steps/{stepKey}']?.patch;
    expect(patch?.tags).toEqual(['Merchant: onboarding']);
    expect(patch?.description).toContain('Reserved to Owner and Admin');
  });
});
