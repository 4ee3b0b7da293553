import { insertTimelineEntry, type TimelineEntry } from "~/models/timeline.server";
import type { TimelineSubject } from "~/schemas/values";
import { notePreview } from "~/util/contact-mentions";
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
  // The audit log shows the note's start without the e-mails and phone numbers in it: a note on one lead may name
  // another person, and an erasure never rewrites the audit entries of other records (the note itself, on the
  // timeline, is found by its mentions' keys).
  await record(actor, "note", subject, id, notePreview(text));
  return entry;
}
