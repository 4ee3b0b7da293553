import { SITE } from "~/config/site";
import { formatPaise } from "~/util/money";
import { formatDate, formatDateTime } from "~/util/dates";
import { A, H2, P, page, type RenderedMail } from "./mail-templates.server";

/**
 * The daily digest e-mail (app/services/digest.server.ts gathers it), as plain text and HTML in the layout of
 * the other e-mails. Names are what visitors typed: React escapes them in the HTML.
 */

/** The outbox row's template (kept apart from MAIL_TEMPLATES: a digest is rendered from a person, not a record). */
export const DIGEST_TEMPLATE = "staff-digest";

export type DigestLine = { id: string; fullName: string; at: string; detail: string; link: string };
export type DigestSection = { key: "overdue" | "due" | "waiting" | "offers"; title: string; total: number; lines: DigestLine[]; listLink?: string };
/** Fees (issue 38): collected this month, outstanding, overdue, in paise; null when nobody owes or paid anything. */
export type DigestFees = { collectedThisMonthPaise: number; outstandingPaise: number; overduePaise: number; link: string } | null;
export type Digest = { day: string; name: string; sections: DigestSection[]; settingsLink: string; fees?: DigestFees };

const lineText = (l: DigestLine) => `${l.fullName} (${l.detail} ${formatDateTime(l.at)}): ${l.link}`;
const more = (s: DigestSection) => s.total - s.lines.length;

export function renderDigestMail(digest: Digest): RenderedMail {
  const sections = digest.sections.filter((s) => s.lines.length > 0);
  const intro = sections.length
    ? `Good morning, ${digest.name}. This is what needs you today, ${formatDate(digest.day)} (times are Hyderabad time).`
    : `Good morning, ${digest.name}. Everything this digest was going to list has been dealt with since it was prepared.`;
  const settings = `You get this e-mail once a day when something needs you. Switch it off or on: ${digest.settingsLink}`;
  const f = digest.fees;
  const fees = f
    ? `Fees: ${formatPaise(f.collectedThisMonthPaise)} collected this month, ${formatPaise(f.outstandingPaise)} outstanding, ${formatPaise(f.overduePaise)} overdue.`
    : null;
  const text = [
    intro,
    ...(fees && f ? ["", `${fees} ${f.link}`] : []),
    ...sections.flatMap((s) => [
      "",
      `${s.title} (${s.total}):`,
      ...s.lines.map((l) => `- ${lineText(l)}`),
      ...(more(s) > 0 ? [`- and ${more(s)} more${s.listLink ? `: ${s.listLink}` : ""}`] : []),
    ]),
    "",
    settings,
    "",
    `${SITE.name} back office`,
  ].join("\n");
  const html = page(
    "Your daily digest",
    <>
      <P>{intro}</P>
      {fees && f ? (
        <P>
          <A href={f.link}>{fees}</A>
        </P>
      ) : null}
      {sections.map((s) => (
        <section key={s.key}>
          <H2>
            {s.title} ({s.total})
          </H2>
          <ul style={{ margin: "0 0 16px", paddingLeft: "20px" }}>
            {s.lines.map((l) => (
              <li key={l.id} style={{ margin: "0 0 6px" }}>
                <A href={l.link}>{l.fullName}</A> ({l.detail} {formatDateTime(l.at)})
              </li>
            ))}
            {more(s) > 0 ? <li>{s.listLink ? <A href={s.listLink}>and {more(s)} more</A> : <>and {more(s)} more</>}</li> : null}
          </ul>
        </section>
      ))}
      <P muted>
        You get this e-mail once a day when something needs you. <A href={digest.settingsLink}>Switch it off or on</A>.
      </P>
    </>,
  );
  return { text, html, toName: digest.name };
}
