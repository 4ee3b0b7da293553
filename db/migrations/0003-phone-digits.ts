import { sql, type Kysely } from "kysely";

/**
 * Staff search the inboxes by phone as they read it out ("98765 43210", "+91-98765-43210"). Matching typed digits
 * against the stored phone meant stripping separators from every row at query time: 340 ms over 100,000
 * enquiries (scripts/bench-enquiries.ts). The digits are now stored next to the phone when a row is written.
 * An index cannot serve a contains-search, but a plain column keeps the scan as cheap as the name's.
 */
const SEPARATORS = [" ", "-", ".", "(", ")", "+"];

function digitsOf(column: string) {
  let expr = sql`${sql.ref(column)}`;
  for (const ch of SEPARATORS) expr = sql`replace(${expr}, ${ch}, '')`;
  return sql<string>`coalesce(${expr}, '')`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["enquiries", "contact_queries"] as const) {
    await db.schema
      .alterTable(table)
      .addColumn("phoneDigits", "varchar(20)", (c) => c.notNull().defaultTo(""))
      .execute();
    await sql`update ${sql.table(table)} set ${sql.ref("phoneDigits")} = ${digitsOf("phone")}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["enquiries", "contact_queries"] as const) {
    await db.schema.alterTable(table).dropColumn("phoneDigits").execute();
  }
}
