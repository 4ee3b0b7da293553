import { inTransaction } from "~db/client.server";
import { isUniqueViolation } from "~db/errors";
import { mailConfigured } from "~/infra/mail.server";
import { reminderSubject } from "~/infra/fee-mail.server";
import { getEnquiry } from "~/models/enquiry.server";
import { claimReminder } from "~/models/fee-reminders.server";
import { getDue, getFeeAccount, openDuesBetween } from "~/models/fees.server";
import { getInvoice } from "~/models/invoices.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { siteToday } from "~/util/dates";
import { addDays } from "~/util/fee-schedule";
import { formatPaise } from "~/util/money";
import { FEE_REMINDER_TEMPLATE, queueFeeMessage } from "./fee-notifications.server";
import { feeSettings } from "./fee-settings.server";
import { runInvoicingJob } from "./invoices.server";
import "./fee-mail.server";

/**
 * Fee reminders (issue 38): on each of the days the settings name around a due's date (default 3 days before, on
 * the day, 3 and 7 days after), a due still unpaid gets one e-mail and, for a student who wants WhatsApp updates, one
 * `fee.reminder` webhook a WhatsApp gateway can turn into a message; the day after its date an unpaid due sends
 * `invoice.overdue` once. Every instance runs the job; each (due, stage) is a unique key inserted in the messages'
 * transaction, so exactly one instance sends it. A due paid (or cancelled) gets nothing more, and the e-mail checks
 * again when it is rendered. A day missed (every instance down) is not caught up: a late reminder for the wrong day
 * would say the wrong thing.
 */

export const FEE_REMINDER_JOB_EVERY_MS = 15 * 60_000;

export async function runFeeReminderJob(now = new Date()): Promise<number> {
  const today = siteToday(now);
  const { reminderDays } = await feeSettings();
  // A due on or past its date has its invoice first, so its reminder can name it.
  await runInvoicingJob(now);
  let sent = 0;
  for (const days of reminderDays) {
    const dueDate = addDays(today, -days);
    for (const due of await openDuesBetween(dueDate, dueDate)) if (await remind(due.id, String(days), days)) sent++;
  }
  // Overdue: dues whose date was yesterday or earlier (within a week, so a new setting does not flood old ones).
  for (const due of await openDuesBetween(addDays(today, -7), addDays(today, -1))) await overdue(due.id);
  return sent;
}

async function remind(dueId: string, stage: string, days: number): Promise<boolean> {
  try {
    return await inTransaction(async () => {
      const due = await getDue(dueId);
      const account = due ? await getFeeAccount(due.accountId) : null;
      const enquiry = due ? await getEnquiry(due.enquiryId) : null;
      if (!due || !account || !enquiry || account.status !== "active" || due.status !== "open" || due.paidPaise >= due.amountPaise) return false;
      // Without e-mail set up, nothing is queued (no stale reminders pile up), as with the digest.
      if (!mailConfigured()) return false;
      if (!(await claimReminder(due.id, stage))) return false;
      const invoice = due.invoiceId ? await getInvoice(due.invoiceId) : null;
      const leftPaise = due.amountPaise - due.paidPaise;
      await queueFeeMessage({
        event: "fee.reminder",
        entity: { type: "due", id: due.id },
        email: {
          template: FEE_REMINDER_TEMPLATE,
          to: enquiry.email,
          subject: reminderSubject({ label: due.label, dueDate: due.dueDate, days }),
          payload: `${due.id}:${days}`,
        },
        webhook: enquiry.whatsappNotifications
          ? {
              timestamp: new Date().toISOString(),
              data: {
                dueId: due.id,
                enquiryId: enquiry.id,
                name: enquiry.fullName,
                phone: enquiry.phone,
                label: due.label,
                course: account.courseTitle,
                dueDate: due.dueDate,
                amountLeftPaise: leftPaise,
                invoiceNumber: invoice?.number ?? null,
                daysFromDueDate: days,
              },
            }
          : undefined,
      });
      await insertTimelineEntry("enquiry", enquiry.id, {
        userId: null,
        userName: "System",
        kind: "fee",
        fromValue: null,
        toValue: stage,
        text: `Reminder sent: ${due.label}, ${formatPaise(leftPaise)} ${days < 0 ? `due in ${-days} days` : days === 0 ? "due today" : `${days} days overdue`}`,
      });
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

async function overdue(dueId: string): Promise<void> {
  try {
    await inTransaction(async () => {
      const due = await getDue(dueId);
      const account = due ? await getFeeAccount(due.accountId) : null;
      if (!due || !account || account.status !== "active" || due.status !== "open") return;
      if (!(await claimReminder(due.id, "overdue"))) return;
      const invoice = due.invoiceId ? await getInvoice(due.invoiceId) : null;
      await queueFeeMessage({
        event: "invoice.overdue",
        entity: { type: "due", id: due.id },
        webhook: {
          timestamp: new Date().toISOString(),
          data: {
            dueId: due.id,
            enquiryId: due.enquiryId,
            invoiceNumber: invoice?.number ?? null,
            dueDate: due.dueDate,
            amountLeftPaise: due.amountPaise - due.paidPaise,
          },
        },
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}
