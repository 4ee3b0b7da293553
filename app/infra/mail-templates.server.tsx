import { renderToStaticMarkup } from "react-dom/server";
import { enquiryReference } from "~/util/enquiry-reference";
import { SITE } from "~/config/site";
import type { ContactQuery } from "~/models/contact-query.server";
import type { Enquiry } from "~/models/enquiry.server";
import type { Schedule } from "~/models/schedule.server";
import { batchFeeMailText } from "~/util/fee";
import { DELIVERY_MODE_LABELS } from "~/schemas/values";
import { formatDate, formatDateTime } from "~/util/dates";
import type { Mailbox } from "~/util/email-address";
import type { MailAttachment } from "./mail.server";
import { attachmentDisplayName } from "./uploads.server";
import { waitlistPlaceText, type WaitlistPlace } from "~/util/waitlist-text";

/**
 * The e-mails about a record, each as plain text and HTML. The HTML is rendered by React, so everything a visitor typed
 * is escaped by construction; the text part is what a plain-text mail reader shows. Styles are inline, as
 * mail readers drop <style> blocks and external CSS.
 */

export const MAIL_TEMPLATES = ["enquiry-alert", "enquiry-ack", "contact-alert", "contact-ack", "enrolment-confirmation"] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

/**
 * What an e-mail is rendered from: the record (read when the e-mail is sent), its back-office link, the link to the
 * visitor's own page, and for an enquiry's acknowledgement its place on a waitlist, if it is on one then.
 */
export type MailPayload = {
  record: Enquiry | ContactQuery;
  link: string;
  enrolment?: Enrolment;
  meLink?: MeLink;
  waitlist?: (WaitlistPlace & { holdHours: number }) | null;
  /** A new enquiry's alert: the staff member it is assigned to (null: nobody yet). */
  owner?: string | null;
};

/** A link to the visitor's own page (/me), made when the e-mail is sent (app/infra/privacy-mail.server.tsx). */
export type MeLink = { url: string; expiresAt: string };

/** An enrolment confirmation's batch (none when the enquiry names no batch) and that batch's calendar file. */
export type Enrolment = { batch: Schedule | null; calendar: { text: string; fileName: string } | null; coursePage: string | null };

/** `toName`: the display name for the recipient (the sender of the submission, for an acknowledgement). */
export type RenderedMail = { text: string; html: string; replyTo?: Mailbox; toName?: string; attachments?: MailAttachment[] };

const HOURS = SITE.hours.map((h) => `${h.days}: ${h.hours}`);
const WHATSAPP_URL = `https://wa.me/${SITE.whatsapp}`;
const ADDRESS = `${SITE.address.street}, ${SITE.address.city} ${SITE.address.postalCode}`;
const modeLabel = (mode: string) => DELIVERY_MODE_LABELS[mode as keyof typeof DELIVERY_MODE_LABELS] ?? mode;

export function enquiryAlertSubject(e: Pick<Enquiry, "fullName" | "preferredCourse" | "preferredMode">): string {
  return `New enquiry: ${e.fullName} for ${e.preferredCourse} (${modeLabel(e.preferredMode)})`;
}
export const ENQUIRY_ACK_SUBJECT = `We have received your enquiry | ${SITE.name}`;
/** One who joined a full batch's waitlist: both subjects say so. */
export function waitlistAlertSubject(e: Pick<Enquiry, "fullName">, w: WaitlistPlace): string {
  return `Waitlist: ${e.fullName} is number ${w.position} for ${w.courseName}, starting ${formatDate(w.startDate)}`;
}
export function waitlistAckSubject(w: WaitlistPlace): string {
  return `You are on the waitlist for ${w.courseName} | ${SITE.name}`;
}
export function contactAlertSubject(q: Pick<ContactQuery, "name" | "subject">): string {
  return `New contact message: ${q.name}${q.subject ? `: ${q.subject}` : ""}`;
}
export const CONTACT_ACK_SUBJECT = `We have received your message | ${SITE.name}`;
/** Set when the enrolment is queued: the batch's course and start day, or the enquiry's course when it names no batch. */
export function enrolmentSubject(e: Pick<Enquiry, "preferredCourse">, batch: Pick<Schedule, "courseName" | "startDate"> | null): string {
  return `Enrolment confirmed: ${batch ? `${batch.courseName}, starts ${formatDate(batch.startDate)}` : e.preferredCourse} | ${SITE.name}`;
}

export function renderMail(template: MailTemplate, payload: MailPayload): RenderedMail {
  switch (template) {
    case "enquiry-alert":
      return enquiryAlert(payload as { record: Enquiry; link: string; owner?: string | null });
    case "enquiry-ack":
      return payload.waitlist
        ? waitlistAck(payload.record as Enquiry, payload.waitlist, payload.meLink)
        : enquiryAck((payload as { record: Enquiry }).record, payload.meLink);
    case "contact-alert":
      return contactAlert(payload as { record: ContactQuery; link: string });
    case "contact-ack":
      return contactAck((payload as { record: ContactQuery }).record, payload.meLink);
    case "enrolment-confirmation":
      return enrolmentConfirmation(
        (payload as { record: Enquiry }).record,
        payload.enrolment ?? { batch: null, calendar: null, coursePage: null },
        payload.meLink,
      );
  }
}

// ------------------------------------------------------------------ staff alerts

type Row = [label: string, value: string];

function enquiryAlert({ record: e, link, owner = null }: { record: Enquiry; link: string; owner?: string | null }): RenderedMail {
  const files = e.filePaths.map(attachmentDisplayName);
  const assigned = owner ? `Assigned to ${owner}` : "Assigned to nobody yet: take it from the list";
  const rows: Row[] = [
    ["Assigned to", owner ?? "Nobody yet"],
    ["Name", e.fullName],
    ["Email", e.email],
    ["Phone", e.phone],
    ["Course", e.preferredCourse],
    ["Mode", modeLabel(e.preferredMode)],
    ["WhatsApp updates", e.whatsappNotifications ? "Yes" : "No"],
    ["Received", `${formatDateTime(e.createdAt)} (Hyderabad time)`],
  ];
  const attachmentsText = files.length ? files.map((f) => `- ${f}`).join("\n") : "None";
  const text = [
    "A new enquiry came in through the website.",
    `${assigned}.`,
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    "",
    "Message:",
    e.message || "(no message)",
    "",
    "Attachments (download them from the enquiry's page):",
    attachmentsText,
    "",
    `Open the enquiry: ${link}`,
    "",
    `We promised to contact the student within ${SITE.responseHours} hours.`,
  ].join("\n");
  const html = page(
    "New enquiry",
    <>
      <P>A new enquiry came in through the website.</P>
      <P>
        <strong>{assigned}.</strong>
      </P>
      <Details rows={rows} />
      <H2>Message</H2>
      <Pre>{e.message || "(no message)"}</Pre>
      <H2>Attachments</H2>
      {files.length ? (
        <ul style={{ margin: "0 0 16px", paddingLeft: "20px" }}>
          {files.map((f, i) => (
            <li key={i}>{f}</li>
          ))}
        </ul>
      ) : (
        <P>None</P>
      )}
      {files.length ? <P muted>Download them from the enquiry's page.</P> : null}
      <ButtonLink href={link}>Open the enquiry</ButtonLink>
      <P muted>We promised to contact the student within {SITE.responseHours} hours.</P>
    </>,
  );
  return { text, html, replyTo: { name: e.fullName, address: e.email } };
}

function contactAlert({ record: q, link }: { record: ContactQuery; link: string }): RenderedMail {
  const rows: Row[] = [
    ["Name", q.name],
    ["Email", q.email],
    ["Phone", q.phone || "Not given"],
    ["Subject", q.subject || "No subject"],
    ["Received", `${formatDateTime(q.createdAt)} (Hyderabad time)`],
  ];
  const text = [
    "A new message came in through the contact form.",
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    "",
    "Message:",
    q.message,
    "",
    `Open the contact query: ${link}`,
    "",
    `We promised to reply within ${SITE.responseHours} hours.`,
  ].join("\n");
  const html = page(
    "New contact message",
    <>
      <P>A new message came in through the contact form.</P>
      <Details rows={rows} />
      <H2>Message</H2>
      <Pre>{q.message}</Pre>
      <ButtonLink href={link}>Open the contact query</ButtonLink>
      <P muted>We promised to reply within {SITE.responseHours} hours.</P>
    </>,
  );
  return { text, html, replyTo: { name: q.name, address: q.email } };
}

// ------------------------------------------------------------------ acknowledgements

const INSTITUTE_REPLY_TO: Mailbox = { name: SITE.name, address: SITE.email };

function closingText(): string[] {
  return [
    `Our working hours (Hyderabad time):`,
    ...HOURS.map((h) => `  ${h}`),
    "",
    `Need us sooner? Call ${SITE.phone} or message us on WhatsApp: ${WHATSAPP_URL}`,
    "",
    "Warm regards,",
    `The ${SITE.name} team`,
    ADDRESS,
  ];
}

function Closing() {
  return (
    <>
      <H2>Our working hours (Hyderabad time)</H2>
      <ul style={{ margin: "0 0 16px", paddingLeft: "20px" }}>
        {HOURS.map((h) => (
          <li key={h}>{h}</li>
        ))}
      </ul>
      <P>
        Need us sooner? Call <A href={SITE.phoneHref}>{SITE.phone}</A> or <A href={WHATSAPP_URL}>message us on WhatsApp</A>.
      </P>
      <P>
        Warm regards,
        <br />
        The {SITE.name} team
      </P>
      <P muted>{ADDRESS}</P>
    </>
  );
}

/** The paragraph every e-mail to a visitor carries (DPDP Act): their own page, what they can do there, until when. */
export function meLinkText(link: MeLink | undefined): string[] {
  if (!link) return [];
  return [
    `See your enquiry and its status, correct your details, download your data or ask us to erase it (this link works until ${formatDate(link.expiresAt)}):`,
    link.url,
    "",
  ];
}

export function MeLinkNote({ link }: { link: MeLink | undefined }) {
  if (!link) return null;
  return (
    <P muted>
      <A href={link.url}>See your enquiry and its status</A>, correct your details, download your data or ask us to erase it. The link works until{" "}
      {formatDate(link.expiresAt)}.
    </P>
  );
}

function enquiryAck(e: Enquiry, meLink?: MeLink): RenderedMail {
  const course = `${e.preferredCourse} (${modeLabel(e.preferredMode)})`;
  const whatsapp = e.whatsappNotifications ? " We will also send you batch updates on WhatsApp." : "";
  // Only what we need to say back: the visitor's own message is not repeated to an address nobody has confirmed.
  const text = [
    `Dear ${e.fullName},`,
    "",
    `Thank you for your enquiry about ${course} at ${SITE.name}.`,
    "",
    "What happens next:",
    `A counsellor will call you on ${e.phone} within ${SITE.responseHours} hours with batch dates, fees and a free demo class.${whatsapp}`,
    "",
    `Your reference: ${enquiryReference(e.id)} (quote it when you write or call us).`,
    "",
    ...meLinkText(meLink),
    ...closingText(),
  ].join("\n");
  const html = page(
    "Thank you for your enquiry",
    <>
      <P>Dear {e.fullName},</P>
      <P>
        Thank you for your enquiry about <strong>{course}</strong> at {SITE.name}.
      </P>
      <H2>What happens next</H2>
      <P>
        A counsellor will call you on <strong>{e.phone}</strong> within {SITE.responseHours} hours with batch dates, fees and a free demo class.{whatsapp}
      </P>
      <P>
        Your reference: <strong>{enquiryReference(e.id)}</strong> (quote it when you write or call us).
      </P>
      <MeLinkNote link={meLink} />
      <Closing />
    </>,
  );
  return { text, html, replyTo: INSTITUTE_REPLY_TO, toName: e.fullName };
}

/** The acknowledgement of one who joined a full batch's waitlist: their place, and how a freed seat reaches them. */
function waitlistAck(e: Enquiry, w: WaitlistPlace & { holdHours: number }, meLink?: MeLink): RenderedMail {
  const place = waitlistPlaceText(w, w.holdHours);
  const text = [
    `Dear ${e.fullName},`,
    "",
    `Thank you for your interest in ${w.courseName} at ${SITE.name}. The batch starting ${formatDate(w.startDate)} is full, so you have joined its waitlist.`,
    "",
    place,
    "",
    "You do not need to do anything until then. If you would rather join another batch, reply to this e-mail or call us.",
    "",
    `Your reference: ${enquiryReference(e.id)} (quote it when you write or call us).`,
    "",
    ...meLinkText(meLink),
    ...closingText(),
  ].join("\n");
  const html = page(
    "You are on the waitlist",
    <>
      <P>Dear {e.fullName},</P>
      <P>
        Thank you for your interest in <strong>{w.courseName}</strong> at {SITE.name}. The batch starting {formatDate(w.startDate)} is full, so you have joined
        its waitlist.
      </P>
      <P>
        <strong>{place}</strong>
      </P>
      <P>You do not need to do anything until then. If you would rather join another batch, reply to this e-mail or call us.</P>
      <P>
        Your reference: <strong>{enquiryReference(e.id)}</strong> (quote it when you write or call us).
      </P>
      <MeLinkNote link={meLink} />
      <Closing />
    </>,
  );
  return { text, html, replyTo: INSTITUTE_REPLY_TO, toName: e.fullName };
}

/** The calendar goes as a file a calendar app adds in one step (METHOD:PUBLISH: no reply is asked for). */
const CALENDAR_CONTENT_TYPE = "text/calendar; charset=utf-8; method=PUBLISH";

/**
 * To the student when staff set their enquiry to Enrolled: the batch (course, dates, days, time, where) and its
 * calendar file; without a batch, the confirmation alone.
 */
function enrolmentConfirmation(e: Enquiry, { batch, calendar, coursePage }: Enrolment, meLink?: MeLink): RenderedMail {
  const course = batch ? batch.courseName : e.preferredCourse;
  const rows: Row[] = batch
    ? [
        ["Course", batch.courseName],
        ["Dates", `${formatDate(batch.startDate)} to ${formatDate(batch.endDate)}`],
        ["Days", batch.days],
        ["Time", `${batch.time} (Hyderabad time)`],
        ["Mode", modeLabel(batch.mode)],
        ["Location", batch.mode === "online" ? "Online" : batch.location],
        ["Fee", batchFeeMailText(batch)],
      ]
    : [];
  const calendarNote = "The attached calendar file (.ics) puts every class in Google Calendar, Outlook or Apple Calendar.";
  const noBatch = "We will write to you with your batch's dates and timings as soon as they are fixed.";
  const text = [
    `Dear ${e.fullName},`,
    "",
    `Welcome to ${SITE.name}! Your enrolment in ${course} is confirmed.`,
    "",
    ...(batch ? ["Your batch:", ...rows.map(([k, v]) => `${k}: ${v}`), "", ...(calendar ? [calendarNote, ""] : [])] : [noBatch, ""]),
    ...(coursePage ? [`About the course: ${coursePage}`, ""] : []),
    "If anything here is not what you agreed with us, reply to this e-mail or call us.",
    "",
    ...meLinkText(meLink),
    ...closingText(),
  ].join("\n");
  const html = page(
    "Your enrolment is confirmed",
    <>
      <P>Dear {e.fullName},</P>
      <P>
        Welcome to {SITE.name}! Your enrolment in <strong>{course}</strong> is confirmed.
      </P>
      {batch ? (
        <>
          <H2>Your batch</H2>
          <Details rows={rows} />
          {calendar ? <P>{calendarNote}</P> : null}
        </>
      ) : (
        <P>{noBatch}</P>
      )}
      {coursePage ? (
        <P>
          <A href={coursePage}>About the course</A>
        </P>
      ) : null}
      <P>If anything here is not what you agreed with us, reply to this e-mail or call us.</P>
      <MeLinkNote link={meLink} />
      <Closing />
    </>,
  );
  const attachments = calendar ? [{ filename: calendar.fileName, content: calendar.text, contentType: CALENDAR_CONTENT_TYPE }] : undefined;
  return { text, html, replyTo: INSTITUTE_REPLY_TO, toName: e.fullName, attachments };
}

/**
 * To whatever address the sender typed: so it carries none of the sender's own words but their name (no subject, no
 * message: anyone could make the institute mail their text to anyone), and one address gets at most three a day.
 */
function contactAck(q: ContactQuery, meLink?: MeLink): RenderedMail {
  const text = [
    `Dear ${q.name},`,
    "",
    `Thank you for writing to ${SITE.name}. We have received your message and will reply within ${SITE.responseHours} hours.`,
    "",
    ...meLinkText(meLink),
    ...closingText(),
  ].join("\n");
  const html = page(
    "Thank you for your message",
    <>
      <P>Dear {q.name},</P>
      <P>
        Thank you for writing to {SITE.name}. We have received your message and will reply within {SITE.responseHours} hours.
      </P>
      <MeLinkNote link={meLink} />
      <Closing />
    </>,
  );
  return { text, html, replyTo: INSTITUTE_REPLY_TO, toName: q.name };
}

// ------------------------------------------------------------------ layout

const BRAND = "#172554";
const TEXT = "#1e293b";
const MUTED = "#475569";

export function page(heading: string, body: React.ReactNode): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{heading}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: "#f1f5f9", fontFamily: "Arial, Helvetica, sans-serif", color: TEXT }}>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ backgroundColor: "#f1f5f9" }}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{ maxWidth: "600px", backgroundColor: "#ffffff", borderRadius: "8px" }}
                >
                  <tbody>
                    <tr>
                      <td
                        style={{
                          backgroundColor: BRAND,
                          color: "#ffffff",
                          padding: "16px 24px",
                          borderRadius: "8px 8px 0 0",
                          fontSize: "18px",
                          fontWeight: "bold",
                        }}
                      >
                        {SITE.name}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "24px", fontSize: "15px", lineHeight: "1.5" }}>
                        <h1 style={{ margin: "0 0 16px", fontSize: "22px", color: BRAND }}>{heading}</h1>
                        {body}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>,
  )}`;
}

export function P({ children, muted }: { children: React.ReactNode; muted?: boolean }) {
  return <p style={{ margin: "0 0 16px", color: muted ? MUTED : TEXT, fontSize: muted ? "13px" : undefined }}>{children}</p>;
}

export function H2({ children }: { children: React.ReactNode }) {
  return <h2 style={{ margin: "24px 0 8px", fontSize: "16px", color: BRAND }}>{children}</h2>;
}

export function A({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a href={href} style={{ color: "#1e40af" }}>
      {children}
    </a>
  );
}

function Pre({ children }: { children: React.ReactNode }) {
  return (
    <p style={{ margin: "0 0 16px", whiteSpace: "pre-wrap", backgroundColor: "#f8fafc", border: "1px solid #e2e8f0", borderRadius: "6px", padding: "12px" }}>
      {children}
    </p>
  );
}

function Details({ rows }: { rows: Row[] }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ borderCollapse: "collapse", width: "100%", margin: "0 0 8px" }}>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <td style={{ padding: "4px 12px 4px 0", color: MUTED, whiteSpace: "nowrap", verticalAlign: "top", width: "1%" }}>{label}</td>
            <td style={{ padding: "4px 0", wordBreak: "break-word" }}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A link drawn as a button. "accent" is the site's one call-to-action colour (accent-600, the Enroll Now buttons),
 * for what a visitor is asked to do; staff e-mails keep the brand blue.
 */
export function ButtonLink({ href, children, tone = "brand" }: { href: string; children: React.ReactNode; tone?: "brand" | "accent" }) {
  return (
    <p style={{ margin: "24px 0" }}>
      <a
        href={href}
        style={{
          display: "inline-block",
          backgroundColor: tone === "accent" ? "#c2410c" : "#1e40af",
          color: "#ffffff",
          padding: "10px 18px",
          borderRadius: "6px",
          textDecoration: "none",
          fontWeight: "bold",
        }}
      >
        {children}
      </a>
    </p>
  );
}
