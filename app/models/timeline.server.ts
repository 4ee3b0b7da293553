import type { Selectable } from "kysely";
import { db, dialect } from "~db/client.server";
import type { TimelineEntriesTable } from "~db/schema";
import { newTimeOrderedId, nowIso } from "~/util/ids";
import type { TimelineKind, TimelineSubject } from "~/schemas/values";
import { contactMentions, type MentionKey } from "~/util/contact-mentions";

/** One line of an enquiry's or contact query's timeline: a staff note, or a change the app recorded. */
export type TimelineEntry = {
  id: string;
  at: string;
  userId: string | null;
  /** The name at the time ("" for the visitor's own submission). */
  userName: string;
  kind: TimelineKind;
  fromValue: string | null;
  toValue: string | null;
  text: string | null;
};

export type TimelineEntryInput = Omit<TimelineEntry, "id" | "at"> & { at?: string };

const toEntry = ({ subjectType: _t, subjectId: _i, ...row }: Selectable<TimelineEntriesTable>): TimelineEntry => ({ ...row, kind: row.kind as TimelineKind });

export async function insertTimelineEntry(subjectType: TimelineSubject, subjectId: string, input: TimelineEntryInput): Promise<TimelineEntry> {
  // Time-ordered: lines of one change share their instant and keep the order they were written in.
  const id = newTimeOrderedId();
  const at = input.at ?? nowIso();
  const row = {
    id,
    subjectType,
    subjectId,
    at,
    userId: input.userId,
    userName: input.userName.slice(0, 254),
    kind: input.kind,
    fromValue: input.fromValue?.slice(0, 255) ?? null,
    toValue: input.toValue?.slice(0, 255) ?? null,
    text: input.text ?? null,
  };
  await db().insertInto("timeline_entries").values(row).execute();
  await recordMentions(id, contactMentions(row.text, row.fromValue, row.toValue));
  return toEntry(row);
}

/**
 * The contact details a line names, by key (migration 0110), so an erasure finds the line by equality. Keys the
 * database counts as one are kept once: MariaDB's collation takes "josé@x.in" and "jose@x.in" (or a case apart) as
 * equal, and a note or a campaign tag naming both failed to save (an enquiry too, from a link setting both tags).
 * The lookup finds the line by either; the erasure rewrites only the exact token.
 */
async function recordMentions(entryId: string, keys: MentionKey[]): Promise<void> {
  if (!keys.length) return;
  const insert = db()
    .insertInto("contact_mentions")
    .values(keys.map((mention) => ({ mention, entryId })));
  await (dialect() === "mysql" ? insert.ignore() : insert.onConflict((oc) => oc.doNothing())).execute();
}

export type TimelineLine = { id: string; subjectType: string; subjectId: string; text: string | null; fromValue: string | null; toValue: string | null };

/** Every line of these records (their own lines, which an erasure scrubs whole). */
export async function timelineLinesOf(subjectType: TimelineSubject, ids: string[]): Promise<TimelineLine[]> {
  if (!ids.length) return [];
  return db()
    .selectFrom("timeline_entries")
    .select(["id", "subjectType", "subjectId", "text", "fromValue", "toValue"])
    .where("subjectType", "=", subjectType)
    .where("subjectId", "in", ids)
    .execute();
}

/** Lines (of any record) that name one of these contact details exactly. */
export async function timelineLinesMentioning(keys: MentionKey[]): Promise<TimelineLine[]> {
  if (!keys.length) return [];
  return db()
    .selectFrom("contact_mentions as m")
    .innerJoin("timeline_entries as t", "t.id", "m.entryId")
    .select(["t.id", "t.subjectType", "t.subjectId", "t.text", "t.fromValue", "t.toValue"])
    .where("m.mention", "in", keys)
    .distinct()
    .execute();
}

/** A line rewritten by an erasure: its text and values, and the contact details it now names. */
export async function rewriteTimelineLine(id: string, values: { text: string | null; fromValue: string | null; toValue: string | null }): Promise<void> {
  await db().updateTable("timeline_entries").set(values).where("id", "=", id).execute();
  await db().deleteFrom("contact_mentions").where("entryId", "=", id).execute();
  await recordMentions(id, contactMentions(values.text, values.fromValue, values.toValue));
}

/** Newest first (the id breaks ties between entries of one save). */
export async function listTimeline(subjectType: TimelineSubject, subjectId: string, limit = 500): Promise<TimelineEntry[]> {
  const rows = await db()
    .selectFrom("timeline_entries")
    .selectAll()
    .where("subjectType", "=", subjectType)
    .where("subjectId", "=", subjectId)
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toEntry);
}

export async function deleteTimeline(subjectType: TimelineSubject, subjectId: string): Promise<void> {
  const lines = db().selectFrom("timeline_entries").select("id").where("subjectType", "=", subjectType).where("subjectId", "=", subjectId);
  await db().deleteFrom("contact_mentions").where("entryId", "in", lines).execute();
  await db().deleteFrom("timeline_entries").where("subjectType", "=", subjectType).where("subjectId", "=", subjectId).execute();
}
