import { Link } from "react-router";
import { Typed } from "~/components/ui/typed";

export type BatchWaitlistLine = { id: string; enquiryId: string; fullName: string; email: string; joined: string; offeredUntil: string | null };

/** A batch's waitlist in order of joining: who waits, who holds an offered seat and until when. */
export function BatchWaitlist({ lines }: { lines: BatchWaitlistLine[] }) {
  return (
    <section aria-labelledby="batch-waitlist-title" className="mt-8 border-t border-slate-200 pt-6">
      <h2 id="batch-waitlist-title" className="text-base font-semibold text-slate-900">
        {`Waitlist (${lines.length})`}
      </h2>
      {lines.length ? (
        <ol className="mt-3 space-y-2 text-sm" data-testid="batch-waitlist">
          {lines.map((l, i) => (
            <li key={l.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-md border border-slate-200 px-3 py-2">
              <span className="font-semibold text-slate-700">{`${i + 1}.`}</span>
              <Link to={`/admin/enquiries/${encodeURIComponent(l.enquiryId)}`} className="font-semibold text-brand-700 underline">
                <Typed>{l.fullName}</Typed>
              </Link>
              <span className="text-slate-600">
                <Typed>{l.email}</Typed>
              </span>
              <span className="text-slate-600">{`joined ${l.joined}`}</span>
              {l.offeredUntil ? (
                <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">{`Offered a seat, held until ${l.offeredUntil}`}</span>
              ) : (
                <span className="text-slate-600">Waiting</span>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-2 text-sm text-slate-600">Nobody is waiting for this batch.</p>
      )}
    </section>
  );
}
