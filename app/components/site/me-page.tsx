import { Form, Link, useNavigation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { ME_LINK_EXPIRED, ME_LINK_INVALID } from "~/schemas/privacy-messages";
import { DELIVERY_MODE_LABELS, type DeliveryMode } from "~/schemas/public-values";
import { formatDate, formatDateTime } from "~/util/dates";
import type { MeEnquiry, MeMessage, MeSeat, MeView } from "~/services/privacy-me.server";
import { ErrorSummary } from "./form-parts";
import { MyEnquiryLookup, type MeLinkRequestResult } from "./my-enquiry-lookup";

/** What /me's action answers: a "Where is my enquiry?" request, or one of the person's own actions. */
export type MeActionResult =
  MeLinkRequestResult | { intent: string; done?: string; erased?: number; fields?: Record<string, string>; formError?: string; sent?: boolean };

type View = MeView | { state: "none" } | { state: "limited" };

const ENQUIRY_STATUS_TEXT: Record<string, string> = {
  new: "Received: a counsellor will call you",
  contacted: "In progress: a counsellor has contacted you",
  enrolled: "Enrolled",
  closed: "Closed",
};
const MESSAGE_STATUS_TEXT: Record<string, string> = { new: "Received", replied: "Replied", closed: "Closed" };
const HELD = "Waiting for your parent's or guardian's consent: we e-mailed them a link.";

/** Where the person stands for the batch, in words (only an enrolled one goes in a calendar). */
function seatText(seat: MeSeat): string {
  switch (seat.state) {
    case "enrolled":
      return "Enrolled: this seat is yours";
    case "waiting":
      return `Waiting: number ${seat.position} on the waitlist`;
    case "offered":
      return `Offered: a seat is held for you until ${formatDateTime(seat.until)} (Hyderabad time)`;
    case "declined":
      return "Declined: you gave up the seat offered to you";
    case "expired":
      return "Offer expired: the seat held for you went to the next person waiting";
    case "withdrawn":
      return "Off the waitlist: the seat offer was withdrawn";
    case "requested":
      return "Not enrolled yet: a counsellor will confirm your seat";
  }
}

const card = "rounded-2xl border border-slate-200 bg-white p-6 shadow-sm";

function Notice({ tone, children }: { tone: "ok" | "error"; children: React.ReactNode }) {
  const style = tone === "ok" ? "border-green-200 bg-green-50 text-green-900" : "border-red-200 bg-red-50 text-red-800";
  return (
    <p role={tone === "ok" ? "status" : "alert"} className={`rounded-lg border p-4 text-sm ${style}`}>
      {children}
    </p>
  );
}

export function MePage({ view, result }: { view: View; result?: MeActionResult }) {
  const linkResult = result?.intent === "send-link" ? (result as MeLinkRequestResult) : undefined;
  if (result && "erased" in result && result.erased !== undefined) {
    return (
      <div className="space-y-6">
        <h2 className="text-2xl font-bold text-slate-900">Your data is erased</h2>
        <Notice tone="ok">
          Your personal data is erased: your name, e-mail, phone, messages and attachments are gone from our records, and this link no longer works. We keep
          only figures without your identity (how many enquiries came for which course).
        </Notice>
      </div>
    );
  }
  if (view.state !== "ok") {
    const message =
      view.state === "invalid"
        ? ME_LINK_INVALID
        : view.state === "expired"
          ? ME_LINK_EXPIRED
          : view.state === "limited"
            ? "Too many attempts. Please wait a few minutes and try again."
            : null;
    return (
      <div className="space-y-6">
        {message ? <Notice tone="error">{message}</Notice> : null}
        <MyEnquiryLookup result={linkResult} />
      </div>
    );
  }
  return <Person view={view} result={result} />;
}

function Person({ view, result }: { view: Extract<MeView, { state: "ok" }>; result?: MeActionResult }) {
  const busy = useNavigation().state === "submitting";
  const done = result && "done" in result ? result.done : undefined;
  const fields = (result && "fields" in result ? result.fields : undefined) ?? {};
  const formError = result?.formError;
  // Each form's answer is shown in its own section, where the page comes back (#me-…) without JavaScript.
  const answered = (intent: string) => result?.intent === intent;
  const here = (section: string) => `/me#${section}`;
  // Posted as documents with JavaScript on too: the access cookie is scoped to /me, and a browser does not send it
  // with React Router's data requests (/me.data is not under /me), so an enhanced post answered "This link has
  // expired" a second after the link was opened, and the revalidation after it showed the page without the person.
  return (
    <div className="space-y-8">
      <div>
        <h2 className="text-2xl font-bold text-slate-900">{`Hello, ${view.name}`}</h2>
        <p className="mt-2 text-sm text-slate-700">
          {`Everything we hold for ${view.email}. This link works until ${formatDate(view.expiresAt)}: anyone who has it can see this page, so please do not share it.`}
        </p>
      </div>
      {formError && !["marketing", "whatsapp", "correct", "erase"].includes(result?.intent ?? "") ? <Notice tone="error">{formError}</Notice> : null}

      <section aria-labelledby="me-enquiries" className="space-y-4">
        <h2 id="me-enquiries" className="text-xl font-bold text-slate-900">
          Your enquiries
        </h2>
        {view.enquiries.length ? view.enquiries.map((e) => <EnquiryCard key={e.id} enquiry={e} />) : <p className="text-sm text-slate-700">No enquiries.</p>}
      </section>

      {view.messages.length ? (
        <section aria-labelledby="me-messages" className="space-y-4">
          <h2 id="me-messages" className="text-xl font-bold text-slate-900">
            Your messages
          </h2>
          {view.messages.map((m) => (
            <MessageCard key={m.id} message={m} />
          ))}
        </section>
      ) : null}

      <section id="me-marketing-section" aria-labelledby="me-marketing" className={card}>
        <h2 id="me-marketing" className="text-xl font-bold text-slate-900">
          Marketing messages
        </h2>
        <p className="mt-2 text-sm text-slate-700" data-testid="me-marketing-state">
          {view.marketing
            ? "You agreed to newsletters, offers of other courses and WhatsApp promotions."
            : "You get no newsletters, offers or promotions: only replies about your enquiries."}
        </p>
        {answered("marketing") && done ? <Notice tone="ok">{done}</Notice> : null}
        {answered("marketing") && formError ? <Notice tone="error">{formError}</Notice> : null}
        <Form reloadDocument method="post" action={here("me-marketing-section")} className="mt-4">
          <input type="hidden" name="intent" value="marketing" />
          <button
            type="submit"
            name="marketing"
            value={view.marketing ? "withdraw" : "give"}
            disabled={busy}
            className={buttonClass(view.marketing ? "primary" : "outline")}
          >
            {view.marketing ? "Withdraw my marketing consent" : "Send me newsletters and offers"}
          </button>
        </Form>
      </section>

      {view.enquiries.some((e) => !e.held) ? (
        <section id="me-whatsapp-section" aria-labelledby="me-whatsapp" className={card}>
          <h2 id="me-whatsapp" className="text-xl font-bold text-slate-900">
            WhatsApp updates
          </h2>
          <p className="mt-2 text-sm text-slate-700" data-testid="me-whatsapp-state">
            {view.whatsapp
              ? `We send batch updates and notifications about your enquiries on WhatsApp to ${view.phone}.`
              : "You get no WhatsApp updates: we write to you by e-mail and call you."}
          </p>
          {answered("whatsapp") && done ? <Notice tone="ok">{done}</Notice> : null}
          {answered("whatsapp") && formError ? <Notice tone="error">{formError}</Notice> : null}
          <Form reloadDocument method="post" action={here("me-whatsapp-section")} className="mt-4">
            <input type="hidden" name="intent" value="whatsapp" />
            <button
              type="submit"
              name="whatsapp"
              value={view.whatsapp ? "off" : "on"}
              disabled={busy}
              className={buttonClass(view.whatsapp ? "primary" : "outline")}
            >
              {view.whatsapp ? "Turn off WhatsApp updates" : "Send me WhatsApp updates"}
            </button>
          </Form>
        </section>
      ) : null}

      <section id="me-correct-section" aria-labelledby="me-correct" className={card}>
        <h2 id="me-correct" className="text-xl font-bold text-slate-900">
          Correct your details
        </h2>
        {answered("correct") && done ? <Notice tone="ok">{done}</Notice> : null}
        {answered("correct") ? (
          <ErrorSummary
            id="me-correct-summary"
            formError={formError}
            items={(["name", "phone"] as const).filter((k) => fields[k]).map((k) => ({ id: `me-${k}`, message: fields[k] }))}
          />
        ) : null}
        <Form reloadDocument method="post" action={here("me-correct-section")} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="correct" />
          <Field label="Name" htmlFor="me-name" errorId="me-name-error" errors={fields.name ? [fields.name] : undefined}>
            <input
              id="me-name"
              name="name"
              type="text"
              autoComplete="name"
              defaultValue={view.name}
              aria-invalid={fields.name ? true : undefined}
              aria-describedby={fields.name ? "me-name-error" : undefined}
              className={inputClass}
            />
          </Field>
          <Field label="Phone number" htmlFor="me-phone" errorId="me-phone-error" errors={fields.phone ? [fields.phone] : undefined}>
            <input
              id="me-phone"
              name="phone"
              type="tel"
              autoComplete="tel"
              defaultValue={view.phone}
              aria-invalid={fields.phone ? true : undefined}
              aria-describedby={fields.phone ? "me-phone-error" : undefined}
              className={inputClass}
            />
          </Field>
          <div className="sm:col-span-2">
            <button type="submit" disabled={busy} className={buttonClass("primary")}>
              Save my details
            </button>
          </div>
        </Form>
        <p className="mt-3 text-xs text-slate-600">
          To change your e-mail address, write to us from the new one: the link on this page goes to the address we have.
        </p>
      </section>

      <section aria-labelledby="me-download" className={card}>
        <h2 id="me-download" className="text-xl font-bold text-slate-900">
          Your data
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          A file (JSON) with every record we hold about you: enquiries, messages, consents, notes, waitlist places, e-mails sent, attachments listed.
        </p>
        <a href="/me/data.json" download="my-data.json" className={buttonClass("outline", "mt-4")}>
          Download my data
        </a>
      </section>

      <section id="me-erase-section" aria-labelledby="me-erase" className="rounded-2xl border border-red-200 bg-red-50 p-6">
        <h2 id="me-erase" className="text-xl font-bold text-red-900">
          Erase my data
        </h2>
        <p className="mt-2 text-sm text-red-900">
          We remove your name, e-mail, phone, messages and attachments from every enquiry and message, and stop every e-mail to you. It cannot be undone.
        </p>
        {answered("erase") ? (
          <ErrorSummary id="me-erase-summary" formError={formError} items={fields.confirm ? [{ id: "me-erase-confirm", message: fields.confirm }] : []} />
        ) : null}
        <Form reloadDocument method="post" action={here("me-erase-section")} className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="erase" />
          <div className="flex items-start gap-3">
            <input
              id="me-erase-confirm"
              type="checkbox"
              name="confirm"
              value="on"
              className="mt-0.5 h-5 w-5 shrink-0 accent-red-700"
              aria-describedby={fields.confirm ? "me-erase-error" : undefined}
            />
            <label htmlFor="me-erase-confirm" className="text-sm text-red-900">
              I understand: erase all my data
            </label>
          </div>
          {fields.confirm ? (
            <p id="me-erase-error" className="text-sm font-medium text-red-800">
              {fields.confirm}
            </p>
          ) : null}
          <button
            type="submit"
            disabled={busy}
            className="inline-flex items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-800 focus-visible:outline-3 disabled:opacity-70"
          >
            Erase my data
          </button>
        </Form>
      </section>
      <p className="text-sm text-slate-600">
        Questions or a complaint? See the{" "}
        <Link to="/privacy#privacy-contact" className="underline">
          privacy notice
        </Link>{" "}
        for whom to contact.
      </p>
    </div>
  );
}

function EnquiryCard({ enquiry: e }: { enquiry: MeEnquiry }) {
  return (
    <article className={card} aria-labelledby={`me-enquiry-${e.id}`}>
      <h3 id={`me-enquiry-${e.id}`} className="text-lg font-semibold text-slate-900">
        {e.course}
      </h3>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-semibold text-slate-700">Status</dt>
        <dd data-testid="me-enquiry-status">{e.held ? (e.heldText ?? HELD) : (ENQUIRY_STATUS_TEXT[e.status] ?? e.status)}</dd>
        <dt className="font-semibold text-slate-700">Sent</dt>
        <dd>{formatDateTime(e.createdAt)} (Hyderabad time)</dd>
        <dt className="font-semibold text-slate-700">Mode</dt>
        <dd>{DELIVERY_MODE_LABELS[e.mode as DeliveryMode] ?? e.mode}</dd>
        {e.batch ? (
          <>
            <dt className="font-semibold text-slate-700">Batch</dt>
            <dd>
              {`${formatDate(e.batch.startDate)} to ${formatDate(e.batch.endDate)}, ${e.batch.days}, ${e.batch.time} (${e.batch.mode === "online" ? "Online" : e.batch.location})`}
              {e.seat?.state === "enrolled" ? (
                <>
                  {" "}
                  <a href={`/me/calendar.ics?enquiry=${encodeURIComponent(e.id)}`} className="font-semibold text-brand-800 underline">
                    Add to calendar (.ics)
                  </a>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        {e.seat && !e.held ? (
          <>
            <dt className="font-semibold text-slate-700">Your seat</dt>
            <dd data-testid="me-seat">
              {seatText(e.seat)}
              {e.seat.state === "offered" ? (
                <>
                  {" "}
                  <a href={e.seat.link} className="font-semibold text-brand-800 underline">
                    Accept or decline the seat
                  </a>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        {e.attachments.length ? (
          <>
            <dt className="font-semibold text-slate-700">Attachments</dt>
            <dd>{e.attachments.join(", ")}</dd>
          </>
        ) : null}
      </dl>
    </article>
  );
}

function MessageCard({ message: m }: { message: MeMessage }) {
  return (
    <article className={card} aria-labelledby={`me-message-${m.id}`}>
      <h3 id={`me-message-${m.id}`} className="text-lg font-semibold text-slate-900">
        {m.subject || "Your message"}
      </h3>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-semibold text-slate-700">Status</dt>
        <dd>{m.held ? HELD : (MESSAGE_STATUS_TEXT[m.status] ?? m.status)}</dd>
        <dt className="font-semibold text-slate-700">Sent</dt>
        <dd>{formatDateTime(m.createdAt)} (Hyderabad time)</dd>
      </dl>
    </article>
  );
}
