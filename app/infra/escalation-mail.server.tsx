import type { Enquiry } from "~/models/enquiry.server";
import { DELIVERY_MODE_LABELS } from "~/schemas/values";
import { formatDateTime } from "~/util/dates";
import { A, P, page, type RenderedMail } from "./mail-templates.server";

/** The outbox row's template of an escalation (app/services/escalation.server.ts renders it when it is sent). */
export const ESCALATION_TEMPLATE = "enquiry-escalation";

export function escalationSubject(e: Pick<Enquiry, "fullName" | "preferredCourse">, hours: number): string {
  return `Escalation: ${e.fullName} (${e.preferredCourse}) has had no reply for ${hours} hours`;
}

/** The admins' e-mail about a New enquiry nobody has touched for `hours`. */
export function renderEscalationMail({
  enquiry: e,
  owner,
  link,
  hours,
  waited,
}: {
  enquiry: Enquiry;
  owner: string;
  link: string;
  hours: number;
  waited: string;
}): RenderedMail {
  const rows: [string, string][] = [
    ["Name", e.fullName],
    ["Phone", e.phone],
    ["Course", `${e.preferredCourse} (${DELIVERY_MODE_LABELS[e.preferredMode]})`],
    ["Received", `${formatDateTime(e.createdAt)} IST (${waited} ago)`],
    ["Owner", owner],
  ];
  const intro = `Nobody has replied to this enquiry for ${hours} hours, although we promise a call back within 24 hours.`;
  const text = [intro, "", ...rows.map(([k, v]) => `${k}: ${v}`), "", `Open the enquiry: ${link}`].join("\n");
  const html = page(
    "An enquiry is waiting",
    <>
      <P>{intro}</P>
      {rows.map(([k, v]) => (
        <P key={k}>
          <strong>{k}:</strong> {v}
        </P>
      ))}
      <P>
        <A href={link}>Open the enquiry</A>
      </P>
    </>,
  );
  return { text, html };
}
