import type { SiteFormResult } from "~/web/site-forms";

/** The part of an enquiry's confirmation a person keeps: the reference to quote, what they sent, where its copy went. */
export function EnquiryReceipt({ done }: { done: NonNullable<SiteFormResult["done"]> }) {
  return (
    <div className="mx-auto mt-4 max-w-md text-left text-sm">
      {done.reference ? (
        <p className="text-center text-base" data-testid="enquiry-reference">
          Your reference: <strong className="font-mono tracking-wide">{done.reference}</strong>
          <span className="block text-sm">Quote it when you write or call us.</span>
        </p>
      ) : null}
      {done.summary?.length ? (
        <>
          <h4 className="mt-4 font-semibold">What you sent</h4>
          <dl className="mt-1 grid grid-cols-[8.5rem_1fr] gap-x-3 gap-y-1" data-testid="enquiry-summary">
            {done.summary.map((row) => (
              <div key={row.label} className="contents">
                <dt className="font-semibold">{row.label}</dt>
                <dd className="break-words whitespace-pre-line">{row.value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {done.copyTo ? <p className="mt-4 text-center break-words">{`A copy was sent to ${done.copyTo}`}</p> : null}
    </div>
  );
}
