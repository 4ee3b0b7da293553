import { Link, useFetcher } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { ME_LINK_SENT } from "~/schemas/privacy-messages";
import { ErrorSummary } from "./form-parts";

/** What the /me action answers a "Where is my enquiry?" request (the page's action data, or this form's fetcher). */
export type MeLinkRequestResult = { intent: "send-link"; sent: boolean; error?: string; formError?: string; email?: string };

/**
 * "Where is my enquiry?": the address the visitor used, and we e-mail it a link to their own page (/me). It posts to
 * /me: with JavaScript through a fetcher, so the answer shows here; without, the browser lands on /me, which shows
 * the same answer and the form again. The answer is the same whether or not we know the address.
 */
export function MyEnquiryLookup({ result: fromPage, className = "" }: { result?: MeLinkRequestResult; className?: string }) {
  const fetcher = useFetcher<MeLinkRequestResult>();
  const result = fetcher.data ?? fromPage;
  const busy = fetcher.state !== "idle";
  const error = result?.error;
  return (
    <section id="where-is-my-enquiry" aria-labelledby="where-is-my-enquiry-title" className={`rounded-xl border border-slate-200 bg-white p-5 ${className}`}>
      <h2 id="where-is-my-enquiry-title" className="text-xl font-bold text-slate-900">
        Where is my enquiry?
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        Enter the e-mail address you used. We e-mail it a link to your own page: your enquiries and their status, batch dates, and your data.
      </p>
      {result?.sent ? (
        <p role="status" className="mt-3 rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-900">
          {ME_LINK_SENT}
        </p>
      ) : null}
      <div className="mt-3">
        <ErrorSummary
          id="where-is-my-enquiry-summary"
          formError={result?.formError}
          items={error ? [{ id: "where-is-my-enquiry-email", message: error }] : []}
        />
      </div>
      {/* Without JavaScript the browser lands on /me at this form, its answer in view. */}
      <fetcher.Form method="post" action="/me#where-is-my-enquiry" noValidate className="mt-3 space-y-3" id="where-is-my-enquiry-form">
        <input type="hidden" name="intent" value="send-link" />
        <div>
          <label htmlFor="where-is-my-enquiry-email" className="mb-1.5 block text-sm font-medium text-slate-800">
            Your e-mail address
          </label>
          <input
            id="where-is-my-enquiry-email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={result && !result.sent ? result.email : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "where-is-my-enquiry-error" : undefined}
            className={inputClass}
          />
          {error ? (
            <p id="where-is-my-enquiry-error" className="mt-1 text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" disabled={busy} className={buttonClass("primary")}>
          {busy ? "Sending..." : "Send me the link"}
        </button>
      </fetcher.Form>
      <p className="mt-3 text-xs text-slate-600">
        We use the address only to send the link.{" "}
        <Link to="/privacy" className="underline">
          Privacy notice
        </Link>
      </p>
    </section>
  );
}
