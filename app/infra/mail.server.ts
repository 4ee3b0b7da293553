import nodemailer, { type Transporter } from "nodemailer";
import { env } from "~/env.server";
import { addressDomain, cleanHeaderText, isPlainAddress, parseMailbox, type Mailbox } from "~/util/email-address";

/**
 * The SMTP transport (nodemailer), configured by SMTP_URL: smtp:// upgrades to TLS with STARTTLS when the
 * server offers it, smtps:// speaks TLS from the start. Unset means e-mail is not configured: the outbox keeps
 * e-mails waiting instead of sending them.
 */

/** A finished e-mail, as the outbox worker hands it over. */
export type OutgoingMail = {
  /** The outbox row's id: the Message-ID is made from it, so every retry of a message carries the same one. */
  id: string;
  to: Mailbox[];
  replyTo?: Mailbox;
  subject: string;
  text: string;
  html: string;
  /** Files made by the app (the enrolment e-mail's calendar), never read from a path or a URL. */
  attachments?: MailAttachment[];
};

export type MailAttachment = { filename: string; content: string; contentType: string };

/**
 * Timeouts well inside the outbox's lease: an unanswering server ends the attempt (and it is retried later)
 * instead of holding the row. nodemailer's defaults wait up to 10 minutes for a silent socket.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 10_000 };

let transport: { url: string; transporter: Transporter } | undefined;

export function mailConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

function transporter(): Transporter {
  const url = env().SMTP_URL;
  if (!url) throw new Error("E-mail is not configured (SMTP_URL is unset)");
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport({ url, ...TIMEOUTS }) };
  return transport.transporter;
}

export function mailFrom(): Mailbox {
  return parseMailbox(env().MAIL_FROM)!;
}

/** `<id@domain of MAIL_FROM>`: stable per outbox row, so a repeat after a crash can be recognised as one message. */
export function messageIdFor(id: string): string {
  return `<${id}@${addressDomain(mailFrom().address)}>`;
}

/** An SMTP answer that will not change on a retry: the server refused a recipient outright (5xx). */
export class PermanentMailError extends Error {
  override name = "PermanentMailError";
}

/**
 * Sends one e-mail. Names are cleaned of control characters and every address must be one plain address, so
 * nothing a visitor typed can add a header or a recipient; the SMTP envelope is set from the same list.
 */
export async function sendMail(mail: OutgoingMail): Promise<void> {
  const to = mail.to.filter((m) => isPlainAddress(m.address));
  if (!to.length || to.length !== mail.to.length) throw new PermanentMailError("A recipient is not one plain e-mail address");
  const from = mailFrom();
  const mailbox = (m: Mailbox) => ({ name: cleanHeaderText(m.name), address: m.address });
  try {
    await transporter().sendMail({
      from: mailbox(from),
      to: to.map(mailbox),
      replyTo: mail.replyTo && isPlainAddress(mail.replyTo.address) ? mailbox(mail.replyTo) : undefined,
      subject: cleanHeaderText(mail.subject, 300),
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
      messageId: messageIdFor(mail.id),
      envelope: { from: from.address, to: to.map((m) => m.address) },
      // Automatic mail (RFC 3834): out-of-office replies and list software should not answer it.
      headers: { "Auto-Submitted": "auto-generated" },
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  } catch (error) {
    const e = error as { code?: string; responseCode?: number; message?: string };
    if (e.code === "EENVELOPE" && (e.responseCode ?? 0) >= 500) throw new PermanentMailError(`Recipient refused: ${e.message ?? "5xx"}`);
    throw error;
  }
}
