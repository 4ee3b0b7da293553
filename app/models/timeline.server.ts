import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import type { TimelineEntriesTable } from "~db/schema";
import { newTimeOrderedId, nowIso } from "~/util/ids";
import type { TimelineKind, TimelineSubject } from "~/schemas/values";

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
  return toEntry(row);
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
  await db().deleteFrom("timeline_entries").where("subjectType", "=", subjectType).where("subjectId", "=", subjectId).execute();
}
