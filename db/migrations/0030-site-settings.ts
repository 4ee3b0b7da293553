import { type Kysely } from "kysely";

/**
 * The site's configurable facts that staff edit on /admin/settings (app/services/site-settings.server.ts): one row
 * per key that differs from its default in app/config/site.ts, its value as JSON text. A key not in the table has
 * its default, so a new setting needs no migration, only an entry in app/schemas/site-settings.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_settings")
    .addColumn("key", "varchar(100)", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    /** The staff member's name at the time. */
    .addColumn("updatedBy", "varchar(254)", (c) => c.notNull().defaultTo(""))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_settings").execute();
}
