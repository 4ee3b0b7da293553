import { inTransaction } from "~db/client.server";
import { attachmentDisplayName, discardUploads, type StoredUpload } from "~/infra/uploads.server";
import { sourceLabel, type LeadSource } from "~/util/lead-source";
import { takeNextAssignee } from "~/models/assignment.server";
import { enquiryIdPrefixTaken, findEnquiriesLike, insertEnquiry, linkDuplicates, type Enquiry } from "~/models/enquiry.server";
import { newId } from "~/util/ids";
import { enquiryReference, idReferencePrefix } from "~/util/enquiry-reference";
import { formatDate } from "~/util/dates";
import { DELIVERY_MODE_LABELS, type DeliveryMode } from "~/schemas/public-values";
import { findScheduleByCourseAndStart, getSchedule } from "~/models/schedule.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { hasMailOnItsWay } from "~/models/outbox.server";
import { COURSE_REQUIRED, ENQUIRY_RECEIPT_FIELDS, enquiryFormSchema, enquirySubmitApiSchema } from "~/schemas/enquiry";
import { FALLBACK_COURSE_TITLES } from "~/config/site";
import { listCourseTitles } from "~/models/course.server";
import { isCalendarDate } from "~/schemas/fields";
import { sourceSchema } from "~/schemas/enquiry-pipeline";
import type { EnquiryFormName } from "~/schemas/values";
import type { Actor } from "./actor";
import { record } from "./audit.server";
import { withDuplicates, type EnquiryRecord } from "./enquiry-lists.server";
import { queueEnquiryNotifications } from "./notifications.server";
import { privacyColumns, recordSubmissionPrivacy } from "./privacy-consents.server";
import { GUARDIAN_WAIT_TITLE, guardianWaitText } from "./guardian-consent.server";
import { invalid } from "./service-error";
import { fieldErrors } from "./validation";
import { joinWaitlistIfFull } from "./waitlist.server";

/**
 * A visitor's enquiry (home form, /enquiry, the API): checked, stored with where it came from and its possible
 * duplicates, and announced through the outbox, in one transaction. Following it up is enquiries.server.ts.
 */

/** Where an enquiry was sent from. The forms send an unticked WhatsApp box as nothing (false); the API defaults to true (spec §3). */
export type EnquiryChannel = EnquiryFormName;

/** The field that carries an enquiry's attachments (the /enquiry page's file input, and `filePaths` of a record). */
export const ATTACHMENT_FIELD = "filePaths";

const DUPLICATE_WINDOW_DAYS = 90;

export type EnquirySubmission = {
  channel: EnquiryChannel;
  files?: StoredUpload[];
  fileError?: string;
  /** From the visitor's first-party cookie (the pages); an integration may send `source` in the body instead. */
  source?: LeadSource | null;
};

const BATCH_DATE_MESSAGE = "batchDate must be a day as YYYY-MM-DD";

/** The catalogue's spelling of a course an enquiry names (a published course, or a title the form falls back to), or null. */
async function catalogueTitle(named: string): Promise<string | null> {
  const wanted = named.trim().toLowerCase();
  const titles = [...(await listCourseTitles("public")).map((c) => c.title), ...FALLBACK_COURSE_TITLES];
  return titles.find((t) => t.toLowerCase() === wanted) ?? null;
}

/**
 * Stores a new enquiry with the files already received (attachments come only from the /enquiry page), or
 * refuses it with every field's message at once, a refused file (`fileError`) included. Status is always "new".
 * In the same transaction: the batch named by `batchDate` (the schedule's Enroll Now), where it came from, links
 * to possible duplicates, the first timeline line, and the staff alert, acknowledgement and webhooks, which the
 * outbox delivers after the commit, never while the visitor waits. On any failure the files are removed:
 * nothing is half-saved.
 */
export async function submitEnquiry(actor: Actor, input: unknown, opts: EnquirySubmission): Promise<EnquiryRecord> {
  const files = opts.files ?? [];
  try {
    const body = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
    const parsed = (opts.channel === "api" ? enquirySubmitApiSchema : enquiryFormSchema).safeParse(body);
    const sent = sourceSchema.safeParse(body.source);
    const fields = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...(sent.success ? {} : prefixed("source", fieldErrors(sent.error))) };
    if (opts.fileError) fields[ATTACHMENT_FIELD] = opts.fileError;
    // The API names a batch by its start day and is told when that is no day; the page's hidden field is ours.
    const badBatchDate = opts.channel === "api" ? !isCalendarDate(String(body.batchDate)) : typeof body.batchDate !== "string";
    if (body.batchDate !== undefined && body.batchDate !== null && badBatchDate) fields.batchDate = BATCH_DATE_MESSAGE;
    // The course is one of the catalogue's (or the fixed titles the form falls back to): never free words of the
    // sender's that the institute's e-mails would then carry to any address.
    // Checked with the other fields, so a refused form names every mistake at once.
    const named = parsed.success ? parsed.data.preferredCourse : typeof body.preferredCourse === "string" ? body.preferredCourse : "";
    const course = named.trim() ? await catalogueTitle(named) : null;
    if (!course && !fields.preferredCourse) fields.preferredCourse = COURSE_REQUIRED;
    if (!parsed.success || !sent.success || Object.keys(fields).length) throw invalid(fields);
    const values = { ...parsed.data, preferredCourse: course! };
    const lead = { utmSource: null, utmMedium: null, utmCampaign: null, referrer: null, ...(opts.source ?? {}), ...definedOnly(sent.data ?? {}) };
    const batchDate = typeof body.batchDate === "string" && isCalendarDate(body.batchDate) ? body.batchDate : null;
    return await inTransaction(async () => {
      const batch = batchDate ? await findScheduleByCourseAndStart(values.preferredCourse, batchDate, values.preferredMode) : null;
      // Every lead has an owner from the moment it arrives: the next in the round-robin of staff who take enquiries.
      const owner = await takeNextAssignee();
      // Its reference (the id's first 8 digits) is its own: a search for it finds exactly this enquiry.
      let id = newId();
      while (await enquiryIdPrefixTaken(idReferencePrefix(id))) id = newId();
      const enquiry = await insertEnquiry(
        {
          ...values,
          // The notice version shown, marketing, and for someone under 18 the guardian (held until they consent).
          ...privacyColumns(values),
          filePaths: files.map((f) => f.storedName),
          scheduleId: batch?.id ?? null,
          assigneeId: owner?.id ?? null,
          source: { ...lead, form: opts.channel },
          sourceLabel: sourceLabel(lead),
        },
        { id },
      );
      // A full batch: the enquiry joins its waitlist (the schedule's Join waitlist, or the API's batchDate).
      const position = batch ? await joinWaitlistIfFull(enquiry, batch) : null;
      const since = new Date(Date.parse(enquiry.createdAt) - DUPLICATE_WINDOW_DAYS * 86_400_000).toISOString();
      await linkDuplicates(enquiry.id, await findEnquiriesLike(enquiry.phone, enquiry.email, since, enquiry.id));
      await insertTimelineEntry("enquiry", enquiry.id, {
        userId: actor.user?.id ?? null,
        userName: actor.user?.name ?? "",
        kind: "created",
        fromValue: null,
        toValue: opts.channel,
        text: describeSource(enquiry),
      });
      if (owner) {
        await insertTimelineEntry("enquiry", enquiry.id, {
          userId: null,
          userName: "Round-robin",
          kind: "assignee",
          fromValue: null,
          toValue: owner.name,
          text: null,
        });
      }
      if (actor.user) await record(actor, "create", "enquiry", enquiry.id, `${enquiry.fullName} (${enquiry.preferredCourse})`);
      // Consent rows; a minor's enquiry is held (no alert, acknowledgement or webhook) until a guardian consents.
      const held = await recordSubmissionPrivacy("enquiry", enquiry, opts.channel, enquiry.fullName);
      // The webhook carries the record as GET /api/enquiries/:id answers it, possible duplicates and consents included.
      const [stored] = await withDuplicates([enquiry]);
      if (!held)
        await queueEnquiryNotifications(stored, position !== null && batch ? { position, courseName: batch.courseName, startDate: batch.startDate } : null);
      return stored;
    });
  } catch (error) {
    await discardUploads(files);
    throw error;
  }
}

const prefixed = (prefix: string, fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k === "body" ? prefix : `${prefix}.${k}`, v]));
const definedOnly = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const RECEIVED_FROM: Record<EnquiryFormName, string> = { home: "the home page form", "enquiry-page": "the enquiry page", api: "the API" };

/** "Received from the enquiry page · campaign google / cpc / diwali-offer · referred by https://www.google.com/" */
function describeSource(e: Enquiry): string {
  const parts = [`Received from ${e.source.form ? RECEIVED_FROM[e.source.form] : "a form"}`];
  const tags = [e.source.utmSource, e.source.utmMedium, e.source.utmCampaign].filter(Boolean);
  if (tags.length) parts.push(`campaign ${tags.join(" / ")}`);
  if (e.source.referrer) parts.push(`referred by ${e.source.referrer}`);
  return parts.join(" · ");
}

export type EnquiryReceipt = Pick<EnquiryRecord, (typeof ENQUIRY_RECEIPT_FIELDS)[number]>;

/**
 * A new enquiry as its sender may see it. Staff get the whole record; anyone else gets back only what they sent:
 * duplicateOf (or the status, the assignee …) would tell a stranger whether an e-mail or phone number enquired
 * in the last 90 days.
 */
export function enquiryAsSeenBy(actor: Actor, record: EnquiryRecord): EnquiryRecord | EnquiryReceipt {
  if (actor.user) return record;
  return Object.fromEntries(ENQUIRY_RECEIPT_FIELDS.map((key) => [key, record[key]])) as EnquiryReceipt;
}

/** A confirmation a person can keep: what they are told, the reference they can quote, what they sent and where its copy went. */
export type EnquiryConfirmation = {
  title?: string;
  text?: string;
  reference?: string;
  copyTo?: string;
  summary: { label: string; value: string }[];
};

/**
 * The form's answer to a stored enquiry. Someone under 18 is told that nothing happens until their guardian consents
 * (and when the enquiry is deleted without it); no reference or copy, since nothing was sent to them and staff do not
 * see it yet. Anyone else gets the reference staff can search for and where the acknowledgement went.
 */
export async function enquiryConfirmation(saved: EnquiryRecord): Promise<EnquiryConfirmation> {
  const batch = saved.scheduleId ? await getSchedule(saved.scheduleId) : null;
  const summary = [
    { label: "Name", value: saved.fullName },
    { label: "Email", value: saved.email },
    { label: "Phone", value: saved.phone },
    { label: "Course", value: saved.preferredCourse },
    { label: "Mode", value: DELIVERY_MODE_LABELS[saved.preferredMode as DeliveryMode] ?? saved.preferredMode },
    ...(batch ? [{ label: "Batch", value: `Starts ${formatDate(batch.startDate)}` }] : []),
    { label: "WhatsApp updates", value: saved.whatsappNotifications ? "Yes" : "No" },
    ...(saved.filePaths.length ? [{ label: "Attachments", value: saved.filePaths.map(attachmentDisplayName).join(", ") }] : []),
    ...(saved.message ? [{ label: "Message", value: saved.message }] : []),
  ];
  if (saved.under18 && saved.guardianEmail) {
    return { title: GUARDIAN_WAIT_TITLE, text: guardianWaitText(saved.guardianName ?? "", saved.createdAt), summary };
  }
  // "A copy was sent" only when the acknowledgement is on its way: not when it was refused (the per-address daily
  // limit, an address that is not one plain address).
  const copySent = await hasMailOnItsWay("enquiry-ack", "enquiry", saved.id);
  return { reference: enquiryReference(saved.id), copyTo: copySent ? saved.email : undefined, summary };
}
