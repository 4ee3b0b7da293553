import { inTransaction } from "~db/client.server";
import { env } from "~/env.server";
import { ESCALATION_TEMPLATE, escalationSubject, renderEscalationMail } from "~/infra/escalation-mail.server";
import type { RenderedMail } from "~/infra/mail-templates.server";
import { PermanentMailError } from "~/infra/mail.server";
import { registerMailRenderer } from "~/infra/outbox-worker.server";
import { getEnquiry, listEscalationDue, markEscalated } from "~/models/enquiry.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { getUser } from "~/models/user.server";
import { ageText } from "~/util/format";
import { publicOrigin } from "~/util/origin.server";
import { queueEnquiryEscalation } from "./notifications.server";

/**
 * The 24-hour promise, kept: a New enquiry that nobody has touched (no call logged, note, status, follow-up or owner
 * chosen by staff) ESCALATION_HOURS after it came in is escalated once: one e-mail to the admins through the outbox,
 * a line on its timeline, and the list marks it. Every instance runs the job every minute; the conditional UPDATE
 * that marks it (escalatedAt still empty) lets exactly one of them queue the e-mail.
 */

export const ESCALATION_JOB_EVERY_MS = 60_000;
/**
 * Only enquiries from the last week are escalated: one untouched for longer (imported, or from before escalation
 * existed) is for the lists and the retention job, not a burst of e-mails to the admins, and a line on its timeline
 * would count as activity and keep it from ever being erased.
 */
export const ESCALATION_WINDOW_DAYS = 7;

export function escalationHours(): number {
  return env().ESCALATION_HOURS;
}

/** Escalates every New enquiry untouched for longer than the promise. Returns how many this run escalated. */
export async function runEscalationJob(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - escalationHours() * 3_600_000).toISOString();
  const since = new Date(now.getTime() - ESCALATION_WINDOW_DAYS * 86_400_000).toISOString();
  let escalated = 0;
  for (const enquiry of await listEscalationDue({ since, before })) {
    const done = await inTransaction(async () => {
      if (!(await markEscalated(enquiry.id, now.toISOString()))) return false;
      await insertTimelineEntry("enquiry", enquiry.id, {
        userId: null,
        userName: "System",
        kind: "escalated",
        fromValue: null,
        toValue: null,
        text: `No reply for ${escalationHours()} hours: escalated to the admins`,
      });
      await queueEnquiryEscalation(enquiry, ESCALATION_TEMPLATE, escalationSubject(enquiry, escalationHours()));
      return true;
    });
    if (done) escalated++;
  }
  return escalated;
}

/** Rendered when sent, from the enquiry as it is then; one answered meanwhile is not sent. */
async function renderEscalation(enquiryId: string): Promise<RenderedMail> {
  const enquiry = await getEnquiry(enquiryId);
  if (!enquiry) throw new PermanentMailError("Not sent: the enquiry was deleted first");
  if (enquiry.status !== "new" || enquiry.touchedAt) throw new PermanentMailError("Not sent: someone answered the enquiry first");
  const owner = enquiry.assigneeId ? ((await getUser(enquiry.assigneeId))?.name ?? "(deleted user)") : "Nobody";
  const link = `${publicOrigin()}/admin/enquiries/${encodeURIComponent(enquiry.id)}`;
  return renderEscalationMail({ enquiry, owner, link, hours: escalationHours(), waited: ageText(Date.now() - Date.parse(enquiry.createdAt)) });
}

registerMailRenderer(ESCALATION_TEMPLATE, (row) => renderEscalation(row.entityId ?? ""));
