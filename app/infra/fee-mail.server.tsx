import { SITE } from "~/config/site";
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from "~/schemas/fee-values";
import { formatDate } from "~/util/dates";
import { formatPaise } from "~/util/money";
import { ButtonLink, MeLinkNote, meLinkText, P, page, type MeLink, type RenderedMail } from "./mail-templates.server";

/**
 * The fee e-mails to a student (issue 38), plain text and HTML: the receipt of a payment (with its invoice numbers)
 * and a due's reminder. Rendered when sent, from the records as they are then (app/services/fee-mail.server.ts).
 */

export type ReceiptMail = {
  name: string;
  receiptNumber: string;
  amountPaise: number;
  method: PaymentMethod;
  reference: string;
  receivedOn: string;
  invoiceNumbers: string[];
  balancePaise: number;
  meLink?: MeLink;
};

export function renderReceiptMail(r: ReceiptMail): RenderedMail {
  const invoices = r.invoiceNumbers.length ? `Invoice: ${r.invoiceNumbers.join(", ")}` : "";
  const balance = r.balancePaise > 0 ? `Still to pay on your fees: ${formatPaise(r.balancePaise)}.` : "Nothing is left to pay on your fees so far.";
  const paid = `We received ${formatPaise(r.amountPaise)} on ${formatDate(r.receivedOn)} (${PAYMENT_METHOD_LABELS[r.method]}${r.reference ? `, ${r.reference}` : ""}).`;
  const text = [
    `Dear ${r.name},`,
    "",
    paid,
    `Receipt: ${r.receiptNumber}`,
    ...(invoices ? [invoices] : []),
    balance,
    "",
    "Your invoices and receipts (PDF) are on your own page:",
    ...meLinkText(r.meLink),
    `Questions? Call or WhatsApp us on ${SITE.phone}.`,
    "",
    SITE.name,
  ].join("\n");
  const html = page(
    "Payment received",
    <>
      <P>Dear {r.name},</P>
      <P>{paid}</P>
      <P>
        Receipt: <strong>{r.receiptNumber}</strong>
        {invoices ? (
          <>
            <br />
            {invoices}
          </>
        ) : null}
      </P>
      <P>{balance}</P>
      {r.meLink ? <ButtonLink href={r.meLink.url}>Your invoices and receipts</ButtonLink> : null}
      <MeLinkNote link={r.meLink} />
      <P muted>
        Questions? Call or WhatsApp us on {SITE.phone}. {SITE.name}
      </P>
    </>,
  );
  return { text, html, toName: r.name };
}

export type ReminderMail = {
  name: string;
  label: string;
  course: string;
  dueDate: string;
  leftPaise: number;
  invoiceNumber: string | null;
  days: number;
  meLink?: MeLink;
};

export function reminderSubject(r: Pick<ReminderMail, "label" | "dueDate" | "days">): string {
  const when = r.days < 0 ? `due on ${formatDate(r.dueDate)}` : r.days === 0 ? "due today" : `overdue since ${formatDate(r.dueDate)}`;
  return `Fee reminder: ${r.label} ${when} | ${SITE.name}`;
}

export function renderReminderMail(r: ReminderMail): RenderedMail {
  const when = r.days < 0 ? `is due on ${formatDate(r.dueDate)}` : r.days === 0 ? "is due today" : `was due on ${formatDate(r.dueDate)} and is not paid yet`;
  const line = `${r.label} for ${r.course} (${formatPaise(r.leftPaise)}${r.invoiceNumber ? `, invoice ${r.invoiceNumber}` : ""}) ${when}.`;
  const text = [
    `Dear ${r.name},`,
    "",
    line,
    "",
    "Pay by UPI (scan the QR code on your page) or online, or tell us the UTR if you have paid already:",
    ...meLinkText(r.meLink),
    "If you have paid in the last day or two, please ignore this reminder.",
    `Questions? Call or WhatsApp us on ${SITE.phone}.`,
    "",
    SITE.name,
  ].join("\n");
  const html = page(
    "Fee reminder",
    <>
      <P>Dear {r.name},</P>
      <P>{line}</P>
      {r.meLink ? <ButtonLink href={r.meLink.url}>Pay now</ButtonLink> : null}
      <MeLinkNote link={r.meLink} />
      <P muted>If you have paid in the last day or two, please ignore this reminder. {SITE.name}</P>
    </>,
  );
  return { text, html, toName: r.name };
}
