import { SITE } from "~/config/site";
import { getEnquiry } from "~/models/enquiry.server";
import { getSchedule, type Schedule } from "~/models/schedule.server";
import { batchFeeMailText } from "~/util/fee";
import { openOfferOfEnquiry } from "~/models/waitlist.server";
import { formatDate, formatDateTime } from "~/util/dates";
import { PermanentMailError } from "./mail.server";
import { ButtonLink, MeLinkNote, meLinkText, P, page, type MeLink, type RenderedMail } from "./mail-templates.server";
import { publicOrigin } from "~/util/origin.server";
import { offerPath, offerToken } from "./waitlist-token.server";

/** The e-mail offering a waiting enquirer a freed seat: rendered when sent, from the enquiry's open offer. */
export const WAITLIST_MAIL_TEMPLATE = "waitlist-offer";

export function waitlistOfferSubject(batch: Pick<Schedule, "courseName" | "startDate">): string {
  return `A seat is free for you: ${batch.courseName}, starting ${formatDate(batch.startDate)} | ${SITE.name}`;
}

/** Throws a permanent failure when there is nothing to offer any more (the enquiry deleted, the offer closed first). */
export async function renderWaitlistOfferMail(enquiryId: string, meLink?: MeLink): Promise<RenderedMail> {
  const [enquiry, offer] = await Promise.all([getEnquiry(enquiryId), openOfferOfEnquiry(enquiryId)]);
  if (!enquiry) throw new PermanentMailError("Not sent: the enquiry was deleted first");
  const batch = offer ? await getSchedule(offer.scheduleId) : null;
  if (!offer || !batch || Date.parse(offer.expiresAt) <= Date.now()) throw new PermanentMailError("Not sent: the waitlist offer was closed before it went out");
  const link = `${publicOrigin()}${offerPath(offerToken(offer.id))}`;
  const until = `${formatDateTime(offer.expiresAt)} (Hyderabad time)`;
  const when = `${formatDate(batch.startDate)} - ${formatDate(batch.endDate)}, ${batch.time}, ${batch.days}`;
  const text = [
    `Dear ${enquiry.fullName},`,
    "",
    `A seat has opened in the batch you are waiting for: ${batch.courseName} (${when}, ${batch.mode}, ${batch.location}).`,
    "",
    `Fee: ${batchFeeMailText(batch)}.`,
    "",
    `We are holding it for you until ${until}. To take it, open this link and confirm:`,
    link,
    "",
    "If you no longer want the seat, you can decline it on the same page, so the next person waiting gets it. If you do nothing, the offer lapses at that time.",
    "",
    ...meLinkText(meLink),
    `Questions? Call or WhatsApp us on ${SITE.phone}.`,
    "",
    SITE.name,
  ].join("\n");
  const html = page(
    "A seat is free for you",
    <>
      <P>Dear {enquiry.fullName},</P>
      <P>
        A seat has opened in the batch you are waiting for: <strong>{batch.courseName}</strong> ({when}, {batch.mode}, {batch.location}).
      </P>
      <P>Fee: {batchFeeMailText(batch)}.</P>
      <P>
        We are holding it for you until <strong>{until}</strong>. Open this link and confirm to take the seat:
      </P>
      <ButtonLink href={link} tone="accent">
        Accept the seat
      </ButtonLink>
      <P muted>
        If you no longer want the seat, you can decline it on the same page, so the next person waiting gets it. If you do nothing, the offer lapses at that
        time.
      </P>
      <MeLinkNote link={meLink} />
      <P muted>
        Questions? Call or WhatsApp us on {SITE.phone}. {SITE.name}
      </P>
    </>,
  );
  return { text, html, toName: enquiry.fullName };
}
