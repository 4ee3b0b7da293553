import type { SiteFormResult } from "~/web/site-forms";

/** The part of an enquiry's confirmation a person keeps: the reference to quote, what they sent, where its copy went. */
export function EnquiryReceipt({ done }: { done: NonNullable<SiteFormResult["done"]> }) {
  return (
    // min-w-0: a long e-mail or message must wrap inside a phone's width, not widen the page (a grid item's
    // least width is otherwise its longest word).
    <div className="mx-auto mt-4 max-w-md min-w-0 text-left text-sm">
      {done.reference ? (
        <p className="text-center text-base" data-testid="enquiry-reference">
          Your reference: <strong className="font-mono tracking-wide whitespace-nowrap">{done.reference}</strong>
          <span className="block text-sm">Quote it when you write or call us.</span>
        </p>
      ) : null}
      {done.summary?.length ? (
        <>
          <h4 className="mt-4 font-semibold">What you sent</h4>
          <dl className="mt-1 grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 sm:grid-cols-[8.5rem_minmax(0,1fr)] gap-y-1" data-testid="enquiry-summary">
            {done.summary.map((row) => (
              <div key={row.label} className="contents">
                <dt className="font-semibold">{row.label}</dt>
                <dd className="min-w-0 whitespace-pre-line wrap-anywhere">{row.value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {done.copyTo ? <p className="mt-4 text-center wrap-anywhere">{`A copy was sent to ${done.copyTo}`}</p> : null}
    </div>
  );
}
