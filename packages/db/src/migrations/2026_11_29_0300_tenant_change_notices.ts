import { type Kysely, sql } from 'kysely';

/**
 * Every gateway keeps the tenants it serves in memory (the organization, its allowed browser
 * origins and its public profile), so a storefront read does not look its store up again. Any
 * change to an organization or its settings row now sends `pg_notify('tenant_changed', <id>)`
 * from a trigger: the notice leaves with the transaction's commit (never for a rolled-back change),
 * whichever code path or hand edit made it, and every gateway listening forgets that tenant
 * (docs/database.md, "Tenant changes").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_tenant_changed() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'organizations' then
        perform pg_notify('tenant_changed', coalesce(new.id, old.id));
      else
        perform pg_notify('tenant_changed', coalesce(new.organization_id, old.organization_id));
      end if;
      return null;
    end
    $$
  `.execute(db);
  await sql`
    create trigger organizations_tenant_changed after update or delete on organizations
    for each row execute function notify_tenant_changed()
  `.execute(db);
  await sql`
    create trigger organization_settings_tenant_changed after insert or update or delete on organization_settings
    for each row execute function notify_tenant_changed()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists organization_settings_tenant_changed on organization_settings`.execute(db);
  await sql`drop trigger if exists organizations_tenant_changed on organizations`.execute(db);
  await sql`drop function if exists notify_tenant_changed()`.execute(db);
}
