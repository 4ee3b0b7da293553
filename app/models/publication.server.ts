import { sql, type SqlBool } from "kysely";
import { db } from "~db/client.server";
import { nowIso } from "~/util/ids";
import type { PublicationState } from "~/schemas/values";
import { contentChanged } from "./content-version.server";
import { batchKeys, courseKeys } from "./content-keys.server";
import { nextVersion } from "./versioning.server";

/**
 * The one visibility rule for courses, batches and reviews (migration 0012): visitors, the sitemap and the
 * API's anonymous reads see a row only when its state is published. A scheduled row is not public until the
 * publishing job (publishDueRows) has made it published, so the page cache's content version always moves
 * when something becomes public. Staff see every state.
 */
export type Audience = "public" | "staff";
export const PUBLIC_STATE: PublicationState = "published";

/** A row's publication, as records carry it (publishAt: when it is due, or when the job published it). */
export type Publication = { state: PublicationState; publishAt: string | null };

/** SQL: `table` (or the query's only table) is public. */
export function isPublic(table?: "courses" | "schedules" | "reviews") {
  return sql<SqlBool>`${sql.ref(table ? `${table}.state` : "state")} = ${PUBLIC_STATE}`;
}

/** The same rule for a row already read. */
export function isPublicRow(row: { state: string }): boolean {
  return row.state === PUBLIC_STATE;
}

export function toPublication(row: { state: string; publishAt: string | null }): Publication {
  const state = (["draft", "scheduled", "published"] as const).find((s) => s === row.state) ?? "published";
  return { state, publishAt: row.publishAt };
}

/** The columns a write stores: publishAt only for a scheduled row. Rows made without a state are published. */
export function publicationValues(p: Partial<Publication> | undefined): { state: PublicationState; publishAt: string | null } {
  const state = p?.state ?? PUBLIC_STATE;
  return { state, publishAt: state === "scheduled" ? (p?.publishAt ?? null) : null };
}

export type PublishedRow = { table: "courses" | "schedules" | "reviews"; id: string; label: string };

/**
 * Makes every scheduled row whose time has come published. Each row is flipped by a conditional UPDATE
 * (still scheduled, still due), so when several instances run this at once each row is flipped, and reported,
 * by exactly one of them. Call inside a transaction; the content version moves when anything changed.
 */
export async function publishDueRows(now = nowIso()): Promise<PublishedRow[]> {
  const done: PublishedRow[] = [];
  const tables = [
    { table: "courses", label: sql<string>`title` },
    { table: "schedules", label: sql<string>`${sql.ref("courseName")}` },
    { table: "reviews", label: sql<string>`name` },
  ] as const;
  for (const { table, label } of tables) {
    const due = await db()
      .selectFrom(table)
      .select(["id", label.as("label")])
      .where("state", "=", "scheduled")
      .where("publishAt", "<=", now)
      // One order in every instance, so two runs lock the same rows in the same order (no deadlock on MySQL).
      .orderBy("id")
      .limit(500)
      .execute();
    for (const row of due) {
      const r = await db()
        .updateTable(table)
        // A new version by "System": a form drawn before the publish is refused rather than setting the state back.
        .set({ state: PUBLIC_STATE, ...nextVersion("System", now) })
        .where("id", "=", row.id)
        .where("state", "=", "scheduled")
        .where("publishAt", "<=", now)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) done.push({ table, id: row.id, label: String(row.label) });
    }
  }
  // Only adds to the public pages: they switch once the new ones are rendered (the published records' own at once).
  const ids = (table: PublishedRow["table"]) => done.filter((d) => d.table === table).map((d) => d.id);
  if (done.length) await contentChanged({ switch: "after-warming", touched: [...(await courseKeys(ids("courses"))), ...(await batchKeys(ids("schedules")))] });
  return done;
}
