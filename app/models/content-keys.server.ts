import { db } from "~db/client.server";
import type { ContentKey } from "./content-version.server";

/**
 * The records a write touches, as contentChanged() takes them: a course's own pages show its batches, and a batch's
 * calendar file shows its course's title, so each brings the other along.
 */

/** Courses by id: each course and its batches. */
export async function courseKeys(ids: readonly string[]): Promise<ContentKey[]> {
  if (!ids.length) return [];
  const courses = await db().selectFrom("courses").select("slug").where("id", "in", ids).execute();
  const batches = await db().selectFrom("schedules").select("id").where("course", "in", ids).execute();
  return [...courses.map((c) => ({ course: c.slug })), ...batches.map((b) => ({ batch: b.id }))];
}

/** Batches by id: each batch and its course. */
export async function batchKeys(ids: readonly string[]): Promise<ContentKey[]> {
  if (!ids.length) return [];
  const rows = await db()
    .selectFrom("schedules")
    .leftJoin("courses", "courses.id", "schedules.course")
    .select(["schedules.id as id", "courses.slug as slug"])
    .where("schedules.id", "in", ids)
    .execute();
  const slugs = [...new Set(rows.flatMap((r) => (r.slug ? [r.slug] : [])))];
  return [...rows.map((r) => ({ batch: r.id })), ...slugs.map((slug) => ({ course: slug }))];
}
