import { sql, type Kysely } from "kysely";

/**
 * Issue 36.7 / 37.2: every record staff edit carries a version, and a batch's seats add up.
 * - `version` and `updatedBy` on courses, schedules, reviews and users, as enquiries have had since 0015: every change
 *   (a form, the API, a publish, a seat taken or given back) adds one with a conditional UPDATE, and a form or API
 *   write drawn from an older version is refused instead of written over the newer change.
 * - `site_settings_version`: the settings are one key per row, so the whole set gets one version of its own (one row),
 *   moved by every save: a stale settings form is refused even when it changes another key than the newer save did.
 * - `schedules.seatsTakenBefore`: seats a batch had taken that no enquiry holds (batches from before enrolments were
 *   recorded, where staff typed Available Seats, and the demo seed). Seats left are counted from then on: enrolled
 *   enquiries holding the batch, open waitlist offers and these. Kept as they were, so no batch shows a seat free
 *   that was not, and nobody waiting is offered one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["courses", "schedules", "reviews", "users"]) {
    await db.schema
      .alterTable(table)
      .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable(table).addColumn("updatedBy", "varchar(254)").execute();
  }
  await db.schema
    .alterTable("schedules")
    .addColumn("seatsTakenBefore", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  const batches = await sql<{ id: string; seats: number; totalSeats: number }>`select id, seats, ${sql.ref("totalSeats")} from schedules`.execute(db);
  for (const b of batches.rows) {
    const held = await sql<{ n: number }>`
      select (select count(*) from enquiries where ${sql.ref("scheduleId")} = ${b.id} and status = 'enrolled')
           + (select count(*) from waitlist_entries where ${sql.ref("scheduleId")} = ${b.id} and status = 'offered') as n`.execute(db);
    const counted = Number(held.rows[0]?.n ?? 0);
    const total = Number(b.totalSeats);
    const before = Math.max(0, total - Number(b.seats) - counted);
    const seats = Math.max(0, total - counted - before);
    await sql`update schedules set ${sql.ref("seatsTakenBefore")} = ${before}, seats = ${seats} where id = ${b.id}`.execute(db);
  }

  await db.schema
    .createTable("site_settings_version")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedBy", "varchar(254)")
    .execute();
  const last = await sql<{ updatedAt: string | null; updatedBy: string | null }>`
    select ${sql.ref("updatedAt")}, ${sql.ref("updatedBy")} from site_settings order by ${sql.ref("updatedAt")} desc limit 1`.execute(db);
  const row = last.rows[0];
  await sql`insert into site_settings_version (id, version, ${sql.ref("updatedAt")}, ${sql.ref("updatedBy")})
            values ('site', 1, ${row?.updatedAt ?? new Date().toISOString()}, ${row?.updatedBy || null})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_settings_version").execute();
  await db.schema.alterTable("schedules").dropColumn("seatsTakenBefore").execute();
  for (const table of ["courses", "schedules", "reviews", "users"]) {
    await db.schema.alterTable(table).dropColumn("updatedBy").execute();
    await db.schema.alterTable(table).dropColumn("version").execute();
  }
}
