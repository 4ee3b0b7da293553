import { SITE } from "~/config/site";
import { env } from "~/env.server";
import { insertPrivacyLink, latestPrivacyLink } from "~/models/privacy-links.server";
import { privacyRecord } from "~/models/people.server";
import type { OutboxDelivery } from "~/models/outbox.server";
import type { TimelineSubject } from "~/schemas/values";
import { formatDate, formatDateTime } from "~/util/dates";
import { publicOrigin } from "~/util/origin.server";
import { PermanentMailError } from "./mail.server";
import { A, H2, P, page, type MeLink, type RenderedMail } from "./mail-templates.server";
import { guardianPath, hashLinkAddress, hashPrivacyToken, mePath, privacyToken } from "./privacy-tokens.server";

/**
 * The privacy e-mails (DPDP Act), rendered when they are sent like every other: the link to a visitor's own page
 * (/me) that "Where is my enquiry?" sends, the consent request to a minor's parent or guardian, and the note with
 * a fresh /me link that every e-mail to a visitor carries (acknowledgement, waitlist offer, enrolment).
 */
export const ME_LINK_TEMPLATE = "me-link";
export const GUARDIAN_TEMPLATE = "guardian-consent";
export const PRIVACY_MAIL_TEMPLATES: readonly string[] = [ME_LINK_TEMPLATE, GUARDIAN_TEMPLATE];

/** The e-mails to a visitor that carry a link to their own page. */
export const VISITOR_TEMPLATES: readonly string[] = ["enquiry-ack", "contact-ack", "enrolment-confirmation", "waitlist-offer"];

export const ME_LINK_SUBJECT = `Your enquiries with ${SITE.name}: your link`;
export const guardianSubject = (name: string) => `Please confirm: ${name} contacted ${SITE.name}`;

/**
 * A new link to the page of the person behind this record, valid ME_LINK_DAYS from now, for the e-mail going to
 * `address`: it opens that address's records only (if staff later put another address on the record, the link
 * stops working rather than follow it).
 */
export async function createMeLink(subjectType: TimelineSubject, subjectId: string, address: string): Promise<MeLink> {
  const expiresAt = new Date(Date.now() + env().ME_LINK_DAYS * 86_400_000).toISOString();
  const link = await insertPrivacyLink({
    kind: "me",
    subjectType,
    subjectId,
    expiresAt,
    addressHash: hashLinkAddress(address),
    tokenHash: (id) => hashPrivacyToken(privacyToken("me", id)),
  });
  return { url: `${publicOrigin()}${mePath(privacyToken("me", link.id))}`, expiresAt };
}

/** For the visitor e-mails (rendered by mail-templates and waitlist-mail): a link to /me, or nothing for a record of another kind. */
export async function meLinkFor(row: Pick<OutboxDelivery, "template" | "entityType" | "entityId" | "recipient">): Promise<MeLink | undefined> {
  if (!VISITOR_TEMPLATES.includes(row.template) || !row.entityId) return undefined;
  if (row.entityType !== "enquiry" && row.entityType !== "contact_query") return undefined;
  return createMeLink(row.entityType, row.entityId, row.recipient);
}

async function recordFor(row: OutboxDelivery) {
  const type = row.entityType === "enquiry" || row.entityType === "contact_query" ? row.entityType : null;
  const found = type && row.entityId ? await privacyRecord(type, row.entityId) : null;
  if (!found) throw new PermanentMailError("Not sent: the record was deleted or erased first");
  return found;
}

const nameOf = (r: Awaited<ReturnType<typeof recordFor>>) => (r.type === "enquiry" ? r.record.fullName : r.record.name);
// Never the sender's own words (a contact message's subject): the guardian's address is typed by the sender too. The
// consent page behind the link shows what was sent.
const whatOf = (r: Awaited<ReturnType<typeof recordFor>>) => (r.type === "enquiry" ? `an enquiry about ${r.record.preferredCourse}` : "a message");

/** "Where is my enquiry?": a fresh link to the page of the person whose record this is. */
async function renderMeLinkMail(row: OutboxDelivery): Promise<RenderedMail> {
  const found = await recordFor(row);
  const link = await createMeLink(found.type, found.record.id, row.recipient);
  const name = nameOf(found);
  const text = [
    `Dear ${name},`,
    "",
    `You asked for a link to your enquiries and messages with ${SITE.name}. Open it to see their status, your batch dates, correct your name or phone, download your data, stop marketing messages or erase your data:`,
    link.url,
    "",
    `The link works until ${formatDate(link.expiresAt)}. If you did not ask for it, you can ignore this e-mail: nobody sees your page without the link.`,
    "",
    SITE.name,
  ].join("\n");
  const html = page(
    "Your enquiries with us",
    <>
      <P>Dear {name},</P>
      <P>
        You asked for a link to your enquiries and messages with {SITE.name}. <A href={link.url}>Open your page</A> to see their status and your batch dates,
        correct your name or phone, download your data, stop marketing messages or erase your data.
      </P>
      <P muted>
        The link works until {formatDate(link.expiresAt)}. If you did not ask for it, you can ignore this e-mail: nobody sees your page without the link.
      </P>
    </>,
  );
  return { text, html, toName: name };
}

/** To a minor's parent or guardian: what was sent, and the link to consent or refuse, before anyone reads it. */
async function renderGuardianMail(row: OutboxDelivery): Promise<RenderedMail> {
  const found = await recordFor(row);
  if (found.state !== "held") throw new PermanentMailError("Not sent: the guardian has answered already");
  const link = await latestPrivacyLink("guardian", found.type, found.record.id);
  if (!link || Date.parse(link.expiresAt) <= Date.now()) throw new PermanentMailError("Not sent: the consent link has expired");
  const url = `${publicOrigin()}${guardianPath(privacyToken("guardian", link.id))}`;
  const child = nameOf(found);
  const guardian = found.record.guardianName ?? "";
  const until = `${formatDateTime(link.expiresAt)} (Hyderabad time)`;
  const text = [
    `Dear ${guardian},`,
    "",
    `${child} sent ${SITE.name} ${whatOf(found)} on ${formatDate(found.record.createdAt)} and told us they are under 18, naming you as their parent or guardian.`,
    "",
    "India's Digital Personal Data Protection Act asks for a parent's or guardian's consent before we use the personal data of someone under 18. Until you answer, nobody at the institute sees what they sent and we do not write to them.",
    "",
    "Open this link to see what they sent, and to consent or refuse:",
    url,
    "",
    `Without your consent by ${until}, everything they sent is erased.`,
    "",
    `Questions? Call ${SITE.phone}.`,
    SITE.name,
  ].join("\n");
  const html = page(
    "Your consent is needed",
    <>
      <P>Dear {guardian},</P>
      <P>
        {child} sent {SITE.name} {whatOf(found)} on {formatDate(found.record.createdAt)} and told us they are under 18, naming you as their parent or guardian.
      </P>
      <P>
        India&apos;s Digital Personal Data Protection Act asks for a parent&apos;s or guardian&apos;s consent before we use the personal data of someone under
        18. Until you answer, nobody at the institute sees what they sent and we do not write to them.
      </P>
      <H2>Your answer</H2>
      <P>
        <A href={url}>See what they sent, and consent or refuse</A>.
      </P>
      <P muted>
        Without your consent by {until}, everything they sent is erased. Questions? Call {SITE.phone}.
      </P>
    </>,
  );
  return { text, html, toName: guardian };
}

export async function renderPrivacyMail(row: OutboxDelivery): Promise<RenderedMail> {
  return row.template === GUARDIAN_TEMPLATE ? renderGuardianMail(row) : renderMeLinkMail(row);
}
