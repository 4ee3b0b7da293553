import { sql } from "kysely";
import { db } from "~db/client.server";
import { SHOWN_TO_STAFF } from "~/schemas/values";

/** Someone holding a seat of a batch, as its staff screen lists them. */
export type RosterLine = {
  enquiryId: string;
  fullName: string;
  phone: string;
  email: string;
  ownerName: string | null;
  /** When they took this batch's seat: the last change of their status to Enrolled or of their batch (else their last change). */
  since: string;
};

/**
 * The enrolled students holding the batch's seats, in the order they took them, and how many more enrolments staff
 * may not see (an erased person's record keeps its seat; its name is gone).
 */
export async function listBatchRoster(scheduleId: string, limit = 1000): Promise<{ lines: RosterLine[]; hidden: number }> {
  const since = db()
    .selectFrom("timeline_entries as t")
    .select((eb) => eb.fn.max("t.at").as("at"))
    .where("t.subjectType", "=", "enquiry")
    .where(sql<boolean>`${sql.ref("t.subjectId")} = ${sql.ref("e.id")}`)
    .where((eb) => eb.or([eb.and([eb("t.kind", "=", "status"), eb("t.toValue", "=", "enrolled")]), eb("t.kind", "=", "batch")]));
  const rows = await db()
    .selectFrom("enquiries as e")
    .leftJoin("users as u", "u.id", "e.assigneeId")
    .select(["e.id", "e.fullName", "e.phone", "e.email", "e.privacyState", "e.updatedAt", "u.name as ownerName", since.as("since")])
    .where("e.scheduleId", "=", scheduleId)
    .where("e.status", "=", "enrolled")
    .orderBy(sql`coalesce(${sql.ref("since")}, ${sql.ref("e.updatedAt")})`)
    .orderBy("e.id")
    .limit(limit)
    .execute();
  const shown = rows.filter((r) => r.privacyState === SHOWN_TO_STAFF);
  return {
    lines: shown.map((r) => ({
      enquiryId: r.id,
      fullName: r.fullName,
      phone: r.phone,
      email: r.email,
      ownerName: r.ownerName ?? null,
      since: (r.since as string | null) ?? r.updatedAt,
    })),
    hidden: rows.length - shown.length,
  };
}
