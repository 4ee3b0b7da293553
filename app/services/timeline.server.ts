import { inTransaction } from "~db/client.server";
import { insertTimelineEntry, type TimelineEntry } from "~/models/timeline.server";
import { noteSchema } from "~/schemas/enquiry-pipeline";
import type { TimelineSubject } from "~/schemas/values";
import type { StaffActor } from "./actor";
import { record } from "./audit.server";
import { notFound } from "./service-error";
import { parseInput } from "./validation";

/** Notes on the timelines of enquiries and contact queries (the changes themselves are recorded by their services). */

/** A staff note on an enquiry's or contact query's timeline. */
export async function addNote(
  actor: StaffActor,
  subject: TimelineSubject,
  id: string,
  input: unknown,
  exists: (id: string) => Promise<boolean>,
): Promise<TimelineEntry> {
  const { text } = parseInput(noteSchema, input);
  return inTransaction(async () => {
    if (!(await exists(id))) throw notFound(subject === "enquiry" ? "Enquiry" : "Contact query");
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
  });
}
