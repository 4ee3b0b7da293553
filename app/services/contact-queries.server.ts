import { inTransaction } from "~db/client.server";
import { deleteContactQueryRow, getContactQuery, insertContactQuery, setContactQueryStatusRow, type ContactQuery } from "~/models/contact-query.server";
import { forgetOutboxMessagesAbout } from "~/models/outbox.server";
import { contactSchema } from "~/schemas/contact";
import { contactStatusSchema } from "~/schemas/contact-query";
import type { Actor, StaffActor } from "./actor";
import { record } from "./audit.server";
import { deleteTimeline, insertTimelineEntry, listTimeline, type TimelineEntry } from "~/models/timeline.server";
import { insertNote } from "./timeline.server";
import { claimFormKey } from "~/models/form-submission.server";
import { noteSchema } from "~/schemas/enquiry-pipeline";
import { writeGuardSchema } from "~/schemas/write-guard";
import { CONTACT_STATUS_LABELS } from "~/schemas/values";
import { queueContactQueryNotifications } from "./notifications.server";
import { privacyColumns, recordSubmissionPrivacy } from "./privacy-consents.server";
import { notFound } from "./service-error";
import { changedMeanwhile, guardedWrite, type GuardedRecord } from "./write-guard.server";
import { forgetPrivacyOf, timelineWithConsents } from "./privacy-records.server";
import { parseInput } from "./validation";

/** Contact messages: visitors send them (home, /contact, the API); staff mark them replied or closed. */

/**
 * Stores the message with its staff alert, acknowledgement and webhooks (one transaction); they go out after it.
 * `channel`: where it was sent from, for its consent rows (the privacy notice shown, marketing); a minor's message
 * is held, and alerted about, acknowledged and announced only once a guardian consents.
 */
export async function submitContactQuery(
  actor: Actor,
  input: unknown,
  { channel = "contact-page" }: { channel?: "home" | "contact-page" | "api" } = {},
): Promise<ContactQuery> {
  const values = parseInput(contactSchema, input);
  return inTransaction(async () => {
    const query = await insertContactQuery({ ...values, ...privacyColumns(values) });
    await insertTimelineEntry("contact_query", query.id, {
      userId: actor.user?.id ?? null,
      userName: actor.user?.name ?? "",
      kind: "created",
      fromValue: null,
      toValue: null,
      text: "Received",
    });
    if (actor.user) await record(actor, "create", "contact_query", query.id, query.name);
    const held = await recordSubmissionPrivacy("contact_query", query, channel, query.name);
    if (!held) await queueContactQueryNotifications(query);
    return query;
  });
}

/** A contact query under the write rule (write-guard.server.ts): "This contact query was changed by … at … IST. Here is what it holds now." */
const contactRecord = (id: string): GuardedRecord<ContactQuery> => ({
  thing: "contact query",
  scope: "contact",
  read: () => getContactQuery(id),
  notFoundName: "Contact query",
});

/**
 * Any status may follow any other (spec §4). A post drawn from an older version is refused with what it holds
 * now; a repeat of the same form post (its key already used) changes nothing.
 */
export async function setContactQueryStatus(actor: StaffActor, id: string, input: unknown): Promise<ContactQuery> {
  const { status } = parseInput(contactStatusSchema, input);
  const target = contactRecord(id);
  return guardedWrite(
    target,
    parseInput(writeGuardSchema, input),
    async (before) => {
      const saved = await setContactQueryStatusRow(id, status, before.version, actor.user.name);
      if (!saved) return changedMeanwhile(target);
      if (before.status !== saved.status) {
        await insertTimelineEntry("contact_query", id, {
          userId: actor.user.id,
          userName: actor.user.name,
          kind: "status",
          fromValue: before.status,
          toValue: saved.status,
          text: null,
        });
      }
      await record(actor, "status", "contact_query", id, `${saved.name}: ${CONTACT_STATUS_LABELS[before.status]} → ${CONTACT_STATUS_LABELS[saved.status]}`);
      return saved;
    },
    (before) => before,
  );
}

/** Deletes the message with its timeline and its e-mails and webhooks not sent yet; sent ones lose their copy of it. */
export async function deleteContactQuery(actor: StaffActor, id: string): Promise<void> {
  await inTransaction(async () => {
    const query = await getContactQuery(id);
    if (!query || !(await deleteContactQueryRow(id))) throw notFound("Contact query");
    await deleteTimeline("contact_query", id);
    await forgetPrivacyOf("contact_query", id);
    await forgetOutboxMessagesAbout("contact_query", id);
    await record(actor, "delete", "contact_query", id, `${query.name}${query.subject ? ` (${query.subject})` : ""}`);
  });
}

/** A note on the query's timeline; a repeat of the same form post adds nothing and answers the newest note. */
export async function addContactQueryNote(actor: StaffActor, id: string, input: unknown): Promise<TimelineEntry> {
  const { text } = parseInput(noteSchema, input);
  const { formKey } = parseInput(writeGuardSchema, input);
  return inTransaction(async () => {
    if (!(await getContactQuery(id))) throw notFound("Contact query");
    if (formKey && !(await claimFormKey(`contact:${formKey}`))) return (await listTimeline("contact_query", id)).find((l) => l.kind === "note")!;
    return insertNote(actor, "contact_query", id, text);
  });
}

export async function contactQueryTimeline(id: string): Promise<TimelineEntry[]> {
  if (!(await getContactQuery(id))) throw notFound("Contact query");
  return timelineWithConsents("contact_query", id, await listTimeline("contact_query", id));
}
