import { CONTACT_STATUSES } from "~/schemas/values";
import { useEffect, useState } from "react";
import { Form, useFetcher } from "react-router";
import type { ContactQuery } from "~/models/contact-query.server";
import { formatDateTime } from "~/util/dates";
import { mailtoUrl, replySubject, telUrl, whatsappChatUrl } from "~/util/contact-links";
import { BUTTON_STYLES } from "./buttons";
import { DetailList } from "./detail-list";
import { InboxStatusBadge } from "./inbox-status";
import { StatusButtons } from "./status-buttons";
import { DialogFlash } from "./dialog-flash";
import type { TimelineLine } from "~/web/timeline-lines";
import { Timeline } from "./timeline";
import { Typed } from "~/components/ui/typed";
import { EmailText } from "~/components/ui/email-text";

/**
 * Reply via Email also marks the query replied (spec §4). With JavaScript it is a real mailto: link whose
 * click sets the status in the background. Without JavaScript a link cannot write, so it is a POST button:
 * the action sets the status and comes back here with ?reply=ready, where OpenMailApp offers the link.
 */
function ReplyViaEmail({ mailto }: { mailto: string }) {
  const fetcher = useFetcher();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) {
    return (
      <Form method="post">
        <input type="hidden" name="intent" value="reply" />
        <button type="submit" className={BUTTON_STYLES.primary}>
          Reply via Email
        </button>
      </Form>
    );
  }
  return (
    <a href={mailto} className={BUTTON_STYLES.primary} onClick={() => fetcher.submit({ intent: "status", status: "replied" }, { method: "post" })}>
      {fetcher.state === "idle" ? "Reply via Email" : "Marking as replied..."}
    </a>
  );
}

/** After the no-JavaScript Reply via Email: the query is marked replied; this opens the mail program. */
function OpenMailApp({ mailto, email, subject }: { mailto: string; email: string; subject: string }) {
  return (
    <div className="rounded-md border border-brand-100 bg-brand-50 px-4 py-4">
      <p className="text-sm text-slate-800">
        Marked as replied. Write your answer to{" "}
        <strong>
          <EmailText email={email} />
        </strong>{" "}
        with the subject <strong>{subject}</strong>.
      </p>
      <a href={mailto} className={`mt-3 ${BUTTON_STYLES.primary}`}>
        Open your e-mail app
      </a>
    </div>
  );
}

export function ContactQueryDetails({
  query,
  replyReady = false,
  timeline = [],
  formKey = "",
  here = "",
}: {
  query: ContactQuery;
  replyReady?: boolean;
  timeline?: TimelineLine[];
  /** This drawing's one-time form key, and this page's URL the note form posts to. */
  formKey?: string;
  here?: string;
}) {
  const tel = telUrl(query.phone);
  const whatsapp = query.phone ? whatsappChatUrl(query.phone) : null;
  const subject = replySubject(query.subject);
  const mailto = mailtoUrl(query.email, subject);
  return (
    <div className="space-y-6">
      <DialogFlash />
      {replyReady ? <OpenMailApp mailto={mailto} email={query.email} subject={subject} /> : null}
      <DetailList
        items={[
          { label: "Name", value: <Typed>{query.name}</Typed> },
          { label: "Status", value: <InboxStatusBadge status={query.status} /> },
          {
            label: "Email",
            value: (
              <a href={mailtoUrl(query.email)} className="text-brand-700 underline">
                <EmailText email={query.email} />
              </a>
            ),
          },
          {
            label: "Phone",
            value: tel ? (
              <span className="flex flex-wrap gap-x-3">
                <a href={tel} className="text-brand-700 underline">
                  {query.phone}
                </a>
                {whatsapp ? (
                  <a href={whatsapp} target="_blank" rel="noopener noreferrer" className="text-green-800 underline">
                    Chat on WhatsApp<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                ) : null}
              </span>
            ) : (
              <span className="text-slate-600">Not given</span>
            ),
          },
          { label: "Subject", value: query.subject ? <Typed>{query.subject}</Typed> : <span className="text-slate-600 italic">No subject</span> },
          { label: "Date", value: formatDateTime(query.createdAt) },
          {
            label: "Message",
            wide: true,
            value: (
              <p>
                <Typed lines>{query.message}</Typed>
              </p>
            ),
          },
        ]}
      />
      <StatusButtons
        key={`${query.id}:${query.version}`}
        statuses={CONTACT_STATUSES}
        current={query.status}
        itemName={`the query from ${query.name}`}
        guard={formKey ? { version: query.version, formKey } : undefined}
      />
      <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-4">
        <ReplyViaEmail mailto={mailto} />
        {tel ? (
          <a href={tel} className={BUTTON_STYLES.secondary}>
            Call {query.phone}
          </a>
        ) : null}
      </div>
      <Timeline lines={timeline} formKey={formKey} action={`${here}#timeline`} />
    </div>
  );
}
