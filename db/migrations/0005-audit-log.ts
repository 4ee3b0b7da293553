import type { Kysely } from "kysely";

/**
 * Who did what in the back office and the API: every staff write, password and role change, sign-in (and
 * failed sign-in) and sign-out. A row is written in the same transaction as the change it records, so the
 * log never claims a change that was rolled back, nor misses one that was committed. Names are copied at the
 * time, so the log still reads right after a user is renamed or deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("audit_log")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("at", "varchar(24)", (c) => c.notNull())
    .addColumn("userId", "varchar(36)")
    .addColumn("userName", "varchar(254)", (c) => c.notNull().defaultTo(""))
    .addColumn("ip", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("requestId", "varchar(32)", (c) => c.notNull().defaultTo(""))
    .addColumn("action", "varchar(20)", (c) => c.notNull())
    .addColumn("entityType", "varchar(20)", (c) => c.notNull())
    .addColumn("entityId", "varchar(64)")
    .addColumn("summary", "varchar(1000)", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("audit_log_at_id").on("audit_log").columns(["at", "id"]).execute();
  await db.schema.createIndex("audit_log_user_at").on("audit_log").columns(["userId", "at"]).execute();
  await db.schema.createIndex("audit_log_entity_at").on("audit_log").columns(["entityType", "at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
}
