import { PermanentMailError } from "~/infra/mail.server";
import { registerMailRenderer } from "~/infra/outbox-worker.server";
import { createMeLink } from "~/infra/privacy-mail.server";
import { renderReceiptMail, renderReminderMail } from "~/infra/fee-mail.server";
import { getEnquiry } from "~/models/enquiry.server";
import { getDue, getFeeAccount } from "~/models/fees.server";
import { getInvoice } from "~/models/invoices.server";
import { getPayment } from "~/models/payments.server";
import { receiptFacts } from "./fee-documents.server";
import { FEE_RECEIPT_TEMPLATE, FEE_REMINDER_TEMPLATE } from "./fee-notifications.server";

/**
 * The fee e-mails, rendered when the outbox worker sends them (registered here, so the worker needs no service): a
 * payment's receipt, from the payment as it is then; a due's reminder, only while the due is still unpaid (checked
 * again now: one paid after the reminder was queued gets no e-mail).
 */

registerMailRenderer(FEE_RECEIPT_TEMPLATE, async (row) => {
  const payment = row.entityId ? await getPayment(row.entityId) : null;
  const enquiry = payment ? await getEnquiry(payment.enquiryId) : null;
  if (!payment || !enquiry) throw new PermanentMailError("Not sent: the payment or the student's record is gone");
  if (payment.status !== "recorded") throw new PermanentMailError("Not sent: the payment was reversed first");
  const facts = await receiptFacts(payment);
  return renderReceiptMail({
    name: enquiry.fullName,
    receiptNumber: payment.number,
    amountPaise: payment.amountPaise,
    method: payment.method,
    reference: payment.reference,
    receivedOn: payment.receivedOn,
    invoiceNumbers: facts.invoiceNumbers,
    balancePaise: facts.balancePaise,
    meLink: await createMeLink("enquiry", enquiry.id, row.recipient),
  });
});

registerMailRenderer(FEE_REMINDER_TEMPLATE, async (row) => {
  const [dueId, stage] = (row.payload || ":").split(":");
  const due = await getDue(row.entityId ?? dueId);
  const account = due ? await getFeeAccount(due.accountId) : null;
  const enquiry = due ? await getEnquiry(due.enquiryId) : null;
  if (!due || !account || !enquiry) throw new PermanentMailError("Not sent: the due or the student's record is gone");
  if (due.status !== "open" || due.paidPaise >= due.amountPaise) throw new PermanentMailError("Not sent: the due was paid first");
  if (account.status !== "active") throw new PermanentMailError("Not sent: the student is no longer enrolled");
  const invoice = due.invoiceId ? await getInvoice(due.invoiceId) : null;
  return renderReminderMail({
    name: enquiry.fullName,
    label: due.label,
    course: account.courseTitle,
    dueDate: due.dueDate,
    leftPaise: due.amountPaise - due.paidPaise,
    invoiceNumber: invoice?.number ?? null,
    days: Number(stage) || 0,
    meLink: await createMeLink("enquiry", enquiry.id, row.recipient),
  });
});

export const FEE_MAIL_RENDERERS = [FEE_RECEIPT_TEMPLATE, FEE_REMINDER_TEMPLATE];
