import { insertTimelineEntry, type TimelineEntry } from "~/models/timeline.server";
import type { TimelineSubject } from "~/schemas/values";
import type { StaffActor } from "./actor";
import { record } from "./audit.server";

/** Notes on the timelines of enquiries and contact queries (the changes themselves are recorded by their services). */

/** A staff note, inside the caller's transaction: the timeline line and its audit row. */
export async function insertNote(actor: StaffActor, subject: TimelineSubject, id: string, text: string): Promise<TimelineEntry> {
  const entry = await insertTimelineEntry(subject, id, {
    userId: actor.user.id,
    userName: actor.user.name,
    kind: "note",
    fromValue: null,
    toValue: null,
    text,
  });
  await record(actor, "note", subject, id, text.length > 60 ? `${text.slice(0, 57)}...` : text);
  return entry;
}
