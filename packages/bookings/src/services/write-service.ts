import { ARCHIVED_FROM_STATUS_KEY, getItem, RESERVED_METAFIELD_PREFIX } from '@commerce/catalog';
import {
  AppError,
  canonicalJson,
  formatIssuePath,
  isAppError,
  newId,
  type ValidationIssue,
} from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import { type Kysely, sql, type UpdateObject } from 'kysely';
import {
  type AvailabilityRules,
  availabilityRulesSchema,
  checkServiceRules,
  DEFAULT_PARTY_SIZE,
  type Durations,
  durationsSchema,
  type FixedSlot,
  findPricingGaps,
  type PeriodMode,
  type Pricing,
  WEEKDAYS,
} from '../availability/schemas.ts';
import type { BookingWriteContext } from '../context.ts';
import {
  type CreateServiceInput,
  checkoutSettingsSchema,
  deliverySettingsSchema,
  policiesSchema,
  type RequirementInput,
  type ServiceRead,
  type UpdateServiceChanges,
  WRITABLE_SERVICE_STATUSES,
} from './schemas.ts';
import {
  findServiceRow,
  loadRequirements,
  type RequirementRow,
  readService,
  type ServiceRow,
  serviceNotFound,
} from './service-read.ts';

export const serviceSlugTaken = () =>
  new AppError('SLUG_TAKEN', 'Another booking service of the organization has this slug');

/** What the rule and activation checks read: a service as it will be after the write. */
interface ServiceState {
  status: ServiceRow['status'];
  periodMode: PeriodMode;
  durations: Durations;
  fixedSlots: FixedSlot[] | null;
  availability: AvailabilityRules;
  pricing: Pricing | null;
}

const issue = (path: (string | number)[], message: string): ValidationIssue => ({
  path: formatIssuePath(path),
  message,
});

/** The rules that join fields (a period mode and its durations …), for any status. */
function ruleIssues(state: ServiceState): ValidationIssue[] {
  return checkServiceRules(state).map((rule) => issue(rule.path, rule.message));
}

/**
 * The activation check: every requirement has an ACTIVE resource, the
 * service has hours (or fixed slots), and its pricing is complete. Each gap is
 * one issue.
 */
function activationIssues(state: ServiceState, requirementsWithoutActive: number[]): ValidationIssue[] {
  const issues = requirementsWithoutActive.map((index) =>
    issue(['requirements', index, 'resourceIds'], 'has no ACTIVE resource: needed to activate'),
  );
  if (
    state.periodMode !== 'FIXED_SLOT' &&
    WEEKDAYS.every((day) => state.availability.weeklyHours[day].length === 0)
  ) {
    issues.push(issue(['availability', 'weeklyHours'], 'has no open hours: needed to activate'));
  }
  for (const gap of findPricingGaps(state)) issues.push(issue(gap.path, gap.message));
  return issues;
}

function throwIfAny(issues: ValidationIssue[], message?: string): void {
  if (issues.length > 0) throw AppError.validation(issues, message);
}

/** The item a service shows must be a SERVICE or RENTAL item of the organization. */
async function itemIssues(db: Kysely<Database>, organizationId: string, itemId: string | null) {
  if (itemId === null) return [];
  try {
    const item = await getItem(db, organizationId, itemId);
    if (item.type === 'SERVICE' || item.type === 'RENTAL') return [];
    return [issue(['itemId'], 'must be an item of type SERVICE or RENTAL')];
  } catch (error) {
    if (isAppError(error) && error.code === 'RESOURCE_NOT_FOUND') {
      return [issue(['itemId'], 'does not name an item of the organization')];
    }
    throw error;
  }
}

/**
 * Every pool member is an ACTIVE resource of the organization. The
 * resources are read `FOR SHARE`, so none is archived before this write commits.
 */
async function poolIssues(
  trx: Kysely<Database>,
  organizationId: string,
  requirements: readonly RequirementInput[],
): Promise<ValidationIssue[]> {
  const ids = [...new Set(requirements.flatMap((requirement) => requirement.resourceIds))];
  const rows = await trx
    .selectFrom('booking_resources')
    .select(['id', 'status'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forShare()
    .execute();
  const status = new Map(rows.map((row) => [row.id, row.status]));
  const issues: ValidationIssue[] = [];
  requirements.forEach((requirement, index) => {
    requirement.resourceIds.forEach((resourceId, position) => {
      const found = status.get(resourceId);
      if (found === undefined) {
        issues.push(
          issue(['requirements', index, 'resourceIds', position], 'is not a resource of the organization'),
        );
      } else if (found !== 'ACTIVE') {
        issues.push(issue(['requirements', index, 'resourceIds', position], 'is an archived resource'));
      }
    });
  });
  return issues;
}

/**
 * Replaces a service's requirements: the rows are rewritten in the order
 * given, requirements sent with an id keep it (and their creation time), the
 * others get new ids, and those left out are deleted with their pools.
 */
async function writeRequirements(
  trx: Kysely<Database>,
  ctx: BookingWriteContext,
  serviceId: string,
  requirements: readonly RequirementInput[],
  previous: readonly RequirementRow[],
): Promise<void> {
  const createdAt = new Map(previous.map((requirement) => [requirement.id, requirement.createdAt]));
  await trx
    .deleteFrom('booking_requirements')
    .where('organization_id', '=', ctx.organizationId)
    .where('service_id', '=', serviceId)
    .execute();
  const rows = requirements.map((requirement, position) => ({
    organization_id: ctx.organizationId,
    id: requirement.id ?? newId('brq', ctx.at),
    service_id: serviceId,
    position,
    name: requirement.name,
    units_mode: requirement.units.mode,
    units_count: requirement.units.mode === 'PER_BOOKING' ? requirement.units.count : null,
    selection: requirement.selection,
    allow_split: requirement.allowSplit,
    created_at: (requirement.id !== undefined ? createdAt.get(requirement.id) : undefined) ?? ctx.at,
  }));
  await trx.insertInto('booking_requirements').values(rows).execute();
  await trx
    .insertInto('booking_requirement_resources')
    .values(
      requirements.flatMap((requirement, index) =>
        requirement.resourceIds.map((resourceId, position) => ({
          organization_id: ctx.organizationId,
          requirement_id: rows[index]!.id,
          resource_id: resourceId,
          position,
        })),
      ),
    )
    .execute();
}

/** The requirements as a request would send them, to tell whether a PATCH changes them. */
function requirementsAsInput(requirements: readonly RequirementRow[]): RequirementInput[] {
  return requirements.map((requirement) => ({
    id: requirement.id,
    name: requirement.name,
    resourceIds: requirement.resourceIds,
    units:
      requirement.unitsMode === 'PER_BOOKING'
        ? { mode: 'PER_BOOKING', count: requirement.unitsCount! }
        : { mode: 'PER_PARTICIPANT' },
    selection: requirement.selection,
    allowSplit: requirement.allowSplit,
  }));
}

function searchTextOf(name: string, description: string | null): string {
  return [name, description ?? ''].join('\n').toLowerCase();
}

/** The store currency of service reads (pricing previews). */
export interface ServiceReadOptions {
  currency: string;
}

/**
 * Creates a service (default `DRAFT`). `ACTIVE` needs the activation check.
 * The slug's uniqueness is the database's (`booking_services_slug_key`):
 * `SLUG_TAKEN`. Audited as `booking_service.created`.
 */
export async function createService(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  input: CreateServiceInput,
  options: ServiceReadOptions,
): Promise<ServiceRead> {
  const state: ServiceState = {
    status: input.status,
    periodMode: input.periodMode,
    durations: input.durations ?? durationsSchema.parse({}),
    fixedSlots: input.fixedSlots ?? null,
    availability: input.availability ?? availabilityRulesSchema.parse({}),
    pricing: input.pricing ?? null,
  };
  const issues = ruleIssues(state);
  input.requirements.forEach((requirement, index) => {
    if (requirement.id !== undefined) {
      issues.push(issue(['requirements', index, 'id'], 'is set by the server; send it only on PATCH'));
    }
  });
  const id = newId('bks', ctx.at);
  try {
    return await inTransaction(db, async (trx) => {
      issues.push(...(await itemIssues(trx, ctx.organizationId, input.itemId ?? null)));
      issues.push(...(await poolIssues(trx, ctx.organizationId, input.requirements)));
      throwIfAny(issues);
      if (state.status === 'ACTIVE') {
        throwIfAny(activationIssues(state, []), 'The service is not ready to be ACTIVE');
      }
      const partySize = input.partySize ?? DEFAULT_PARTY_SIZE;
      const description = input.description ?? null;
      const row = await trx
        .insertInto('booking_services')
        .values({
          organization_id: ctx.organizationId,
          id,
          slug: input.slug,
          name: input.name,
          description,
          status: input.status,
          item_id: input.itemId ?? null,
          period_mode: input.periodMode,
          timezone: input.timezone,
          durations: JSON.stringify(state.durations),
          fixed_slots: JSON.stringify(state.fixedSlots ?? []),
          availability: JSON.stringify(state.availability),
          party_size_min: partySize.min,
          party_size_max: partySize.max,
          pricing: JSON.stringify(state.pricing),
          checkout: JSON.stringify(input.checkout ?? checkoutSettingsSchema.parse({})),
          policies: JSON.stringify(input.policies ?? policiesSchema.parse({})),
          delivery: JSON.stringify(input.delivery ?? deliverySettingsSchema.parse({})),
          agreement: JSON.stringify(input.agreement ?? null),
          agreement_version: input.agreement ? 1 : 0,
          sort_order: input.sortOrder ?? 0,
          metafields: JSON.stringify(input.metafields ?? {}),
          search_text: searchTextOf(input.name, description),
          archived_at: null,
          created_at: ctx.at,
          updated_at: ctx.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeRequirements(trx, ctx, id, input.requirements, []);
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'booking_service.created',
        targetType: 'booking_service',
        targetId: id,
        metadata: { slug: row.slug, status: row.status, periodMode: row.period_mode },
        at: ctx.at,
      });
      return readService(trx, ctx.organizationId, row, options.currency);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'booking_services_slug_key')) throw serviceSlugTaken();
    throw error;
  }
}

function stateOf(row: ServiceRow): ServiceState {
  return {
    status: row.status,
    periodMode: row.period_mode as PeriodMode,
    durations: row.durations as Durations,
    fixedSlots: row.period_mode === 'FIXED_SLOT' ? (row.fixed_slots as FixedSlot[]) : null,
    availability: row.availability as AvailabilityRules,
    pricing: row.pricing as Pricing | null,
  };
}

/**
 * Applies a PATCH under the service's row lock: each top-level key sent
 * replaces that key whole; requirements sent with an id keep it (an id not
 * of this service is 400). The merged service is checked again (rules, and
 * the activation check when it is or becomes `ACTIVE`). An archived service
 * changes status only through restore (`409 INVALID_STATE_TRANSITION`).
 * Only changed keys are written and audited (`booking_service.updated`,
 * `{ fields }`). The agreement's version grows by one when its text changes.
 */
export async function updateService(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  serviceId: string,
  changes: UpdateServiceChanges,
  options: ServiceReadOptions,
): Promise<ServiceRead> {
  try {
    return await inTransaction(db, async (trx) => {
      const row = await findServiceRow(trx, ctx.organizationId, serviceId, { forUpdate: true });
      if (!row) throw serviceNotFound();
      if (changes.status !== undefined && row.status === 'ARCHIVED') {
        throw new AppError(
          'INVALID_STATE_TRANSITION',
          'An archived service changes status only through POST /merchant/booking-services/{id}/restore',
        );
      }
      const previous = (await loadRequirements(trx, ctx.organizationId, [serviceId])).get(serviceId) ?? [];
      const current = stateOf(row);
      const state: ServiceState = {
        status: changes.status ?? current.status,
        periodMode: changes.periodMode ?? current.periodMode,
        durations: changes.durations ?? current.durations,
        fixedSlots: changes.fixedSlots !== undefined ? changes.fixedSlots : current.fixedSlots,
        availability: changes.availability ?? current.availability,
        pricing: changes.pricing !== undefined ? changes.pricing : current.pricing,
      };
      if (state.periodMode !== 'FIXED_SLOT' && changes.fixedSlots === undefined) state.fixedSlots = null;

      const issues = ruleIssues(state);
      if (changes.itemId !== undefined && changes.itemId !== row.item_id) {
        issues.push(...(await itemIssues(trx, ctx.organizationId, changes.itemId)));
      }
      if (changes.requirements !== undefined) {
        const known = new Set(previous.map((requirement) => requirement.id));
        changes.requirements.forEach((requirement, index) => {
          if (requirement.id !== undefined && !known.has(requirement.id)) {
            issues.push(issue(['requirements', index, 'id'], 'is not a requirement of this service'));
          }
        });
        issues.push(...(await poolIssues(trx, ctx.organizationId, changes.requirements)));
      }
      throwIfAny(issues);
      if (state.status === 'ACTIVE') {
        const withoutActive =
          changes.requirements !== undefined
            ? []
            : previous.flatMap((requirement, index) =>
                requirement.activeResources.length === 0 ? [index] : [],
              );
        throwIfAny(activationIssues(state, withoutActive), 'The service is not ready to be ACTIVE');
      }

      const set: UpdateObject<Database, 'booking_services'> = {};
      const fields: string[] = [];
      const scalar = <T>(field: string, next: T | undefined, currentValue: T): next is T => {
        if (next === undefined || next === currentValue) return false;
        fields.push(field);
        return true;
      };
      const json = (field: string, next: unknown, currentValue: unknown): boolean => {
        if (next === undefined || canonicalJson(next) === canonicalJson(currentValue)) return false;
        fields.push(field);
        return true;
      };
      if (scalar('slug', changes.slug, row.slug)) set.slug = changes.slug;
      if (scalar('name', changes.name, row.name)) set.name = changes.name;
      if (scalar('description', changes.description, row.description)) set.description = changes.description;
      if (scalar('status', changes.status, row.status)) set.status = changes.status;
      if (scalar('itemId', changes.itemId, row.item_id)) set.item_id = changes.itemId;
      if (scalar('periodMode', changes.periodMode, row.period_mode)) set.period_mode = changes.periodMode;
      if (scalar('timezone', changes.timezone, row.timezone)) set.timezone = changes.timezone;
      if (json('durations', changes.durations, row.durations))
        set.durations = JSON.stringify(changes.durations);
      if (json('fixedSlots', state.fixedSlots ?? [], row.fixed_slots)) {
        set.fixed_slots = JSON.stringify(state.fixedSlots ?? []);
      }
      if (json('availability', changes.availability, row.availability)) {
        set.availability = JSON.stringify(changes.availability);
      }
      if (
        changes.partySize !== undefined &&
        (changes.partySize.min !== row.party_size_min || changes.partySize.max !== row.party_size_max)
      ) {
        fields.push('partySize');
        set.party_size_min = changes.partySize.min;
        set.party_size_max = changes.partySize.max;
      }
      if (json('pricing', changes.pricing, row.pricing)) set.pricing = JSON.stringify(changes.pricing);
      if (json('checkout', changes.checkout, row.checkout)) set.checkout = JSON.stringify(changes.checkout);
      if (json('policies', changes.policies, row.policies)) set.policies = JSON.stringify(changes.policies);
      if (json('delivery', changes.delivery, row.delivery)) set.delivery = JSON.stringify(changes.delivery);
      if (json('agreement', changes.agreement, row.agreement)) {
        set.agreement = JSON.stringify(changes.agreement);
        if (changes.agreement !== null && changes.agreement !== undefined) {
          set.agreement_version = row.agreement_version + 1;
        }
      }
      if (scalar('sortOrder', changes.sortOrder, row.sort_order)) set.sort_order = changes.sortOrder;
      if (changes.metafields !== undefined) {
        const reserved = Object.entries(row.metafields).filter(([key]) =>
          key.startsWith(RESERVED_METAFIELD_PREFIX),
        );
        const merchantKeys = Object.fromEntries(
          Object.entries(row.metafields).filter(([key]) => !key.startsWith(RESERVED_METAFIELD_PREFIX)),
        );
        if (json('metafields', changes.metafields, merchantKeys)) {
          set.metafields = JSON.stringify({ ...changes.metafields, ...Object.fromEntries(reserved) });
        }
      }
      const requirementsChanged =
        changes.requirements !== undefined &&
        canonicalJson(
          changes.requirements.map((requirement) => ({ ...requirement, id: requirement.id ?? null })),
        ) !== canonicalJson(requirementsAsInput(previous));
      if (requirementsChanged) fields.push('requirements');
      if (fields.length === 0) return readService(trx, ctx.organizationId, row, options.currency);

      if (set.name !== undefined || set.description !== undefined) {
        set.search_text = searchTextOf(
          changes.name ?? row.name,
          changes.description !== undefined ? changes.description : row.description,
        );
      }
      const updated = await trx
        .updateTable('booking_services')
        .set({ ...set, updated_at: ctx.at })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', serviceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (requirementsChanged) await writeRequirements(trx, ctx, serviceId, changes.requirements!, previous);
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'booking_service.updated',
        targetType: 'booking_service',
        targetId: serviceId,
        metadata: {
          fields,
          ...(set.status !== undefined ? { from: row.status, to: set.status } : {}),
        },
        at: ctx.at,
      });
      return readService(trx, ctx.organizationId, updated, options.currency);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'booking_services_slug_key')) throw serviceSlugTaken();
    throw error;
  }
}

/**
 * Archives a service from any state: `ARCHIVED`, `archivedAt`, the prior
 * status in `metafields.__archivedFromStatus`. Idempotent: an archived service
 * changes nothing and records nothing. Audited as `booking_service.archived`.
 */
export async function archiveService(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  serviceId: string,
  options: ServiceReadOptions,
): Promise<ServiceRead> {
  return inTransaction(db, async (trx) => {
    const row = await findServiceRow(trx, ctx.organizationId, serviceId, { forUpdate: true });
    if (!row) throw serviceNotFound();
    if (row.archived_at !== null) return readService(trx, ctx.organizationId, row, options.currency);
    const archived = await trx
      .updateTable('booking_services')
      .set({
        status: 'ARCHIVED',
        archived_at: ctx.at,
        metafields: sql<string>`metafields || jsonb_build_object(${ARCHIVED_FROM_STATUS_KEY}::text, ${row.status}::text)`,
        updated_at: ctx.at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', serviceId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'booking_service.archived',
      targetType: 'booking_service',
      targetId: serviceId,
      metadata: { from: row.status, to: 'ARCHIVED' },
      at: ctx.at,
    });
    return readService(trx, ctx.organizationId, archived, options.currency);
  });
}

/**
 * Restores an archived service to its stored prior status, or `DRAFT` when
 * none is stored or when an `ACTIVE` one would fail the activation check now
 * (its resources archived meanwhile, say). Idempotent. Audited as
 * `booking_service.restored`.
 */
export async function restoreService(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  serviceId: string,
  options: ServiceReadOptions,
): Promise<ServiceRead> {
  return inTransaction(db, async (trx) => {
    const row = await findServiceRow(trx, ctx.organizationId, serviceId, { forUpdate: true });
    if (!row) throw serviceNotFound();
    if (row.archived_at === null) return readService(trx, ctx.organizationId, row, options.currency);
    const stored = row.metafields[ARCHIVED_FROM_STATUS_KEY];
    let status = WRITABLE_SERVICE_STATUSES.find((candidate) => candidate === stored) ?? 'DRAFT';
    if (status === 'ACTIVE') {
      const requirements =
        (await loadRequirements(trx, ctx.organizationId, [serviceId])).get(serviceId) ?? [];
      const withoutActive = requirements.flatMap((requirement, index) =>
        requirement.activeResources.length === 0 ? [index] : [],
      );
      if (activationIssues({ ...stateOf(row), status }, withoutActive).length > 0) status = 'DRAFT';
    }
    const restored = await trx
      .updateTable('booking_services')
      .set({
        status,
        archived_at: null,
        metafields: sql<string>`metafields - ${ARCHIVED_FROM_STATUS_KEY}::text`,
        updated_at: ctx.at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', serviceId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'booking_service.restored',
      targetType: 'booking_service',
      targetId: serviceId,
      metadata: { from: 'ARCHIVED', to: status },
      at: ctx.at,
    });
    return readService(trx, ctx.organizationId, restored, options.currency);
  });
}
