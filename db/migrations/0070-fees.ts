import { type Kysely } from "kysely";

/**
 * Fees (issue 27): a course's fee in whole rupees (null: on request) and whether GST is included in it; a batch's
 * own price (null: the course's), e.g. an early-bird one, with a short label. Existing rows have no fee, so every
 * page says "Fee on request" until staff set one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("courses").addColumn("fee", "integer").execute();
  await db.schema
    .alterTable("courses")
    .addColumn("feeIncludesGst", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("schedules").addColumn("fee", "integer").execute();
  await db.schema
    .alterTable("schedules")
    .addColumn("feeLabel", "varchar(60)", (c) => c.notNull().defaultTo(""))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("schedules").dropColumn("feeLabel").execute();
  await db.schema.alterTable("schedules").dropColumn("fee").execute();
  await db.schema.alterTable("courses").dropColumn("feeIncludesGst").execute();
  await db.schema.alterTable("courses").dropColumn("fee").execute();
}
