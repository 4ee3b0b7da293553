import { Link } from "react-router";
import { Typed } from "~/components/ui/typed";

export type BatchRosterLine = { enquiryId: string; fullName: string; phone: string; since: string; ownerName: string | null };

/**
 * Who holds a batch's seats: each enrolled student (a link to their enquiry, their phone, since when, who owns the
 * enquiry), in the order they took their seat, and the seats held otherwise (an open waitlist offer, listed under
 * Waitlist; an erased person's enrolment; seats taken before enrolments were recorded here), so the lines add up to
 * the seats taken.
 */
export function BatchRoster({
  lines,
  taken,
  total,
  heldOtherwise,
}: {
  lines: BatchRosterLine[];
  taken: number;
  total: number;
  heldOtherwise: { offered: number; hidden: number; before: number };
}) {
  const others = [
    heldOtherwise.offered ? `${heldOtherwise.offered} held by open waitlist ${heldOtherwise.offered === 1 ? "offer" : "offers"} (below)` : null,
    heldOtherwise.hidden ? `${heldOtherwise.hidden} by ${heldOtherwise.hidden === 1 ? "a student" : "students"} whose details were erased on request` : null,
    heldOtherwise.before ? `${heldOtherwise.before} taken before enrolments were recorded here` : null,
  ].filter(Boolean);
  return (
    <section aria-labelledby="batch-roster-title" className="mt-8 border-t border-slate-200 pt-6">
      <h2 id="batch-roster-title" className="text-base font-semibold text-slate-900">
        {`Seats taken: ${taken} of ${total}`}
      </h2>
      {lines.length ? (
        // A list, not a table: each line wraps on a phone instead of scrolling sideways.
        <ol className="mt-3 space-y-2 text-sm" data-testid="batch-roster" aria-label="Enrolled students holding this batch's seats">
          {lines.map((l, i) => (
            <li key={l.enquiryId} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-md border border-slate-200 px-3 py-2">
              <span className="font-semibold text-slate-700">{`${i + 1}.`}</span>
              <Link to={`/admin/enquiries/${encodeURIComponent(l.enquiryId)}`} className="font-semibold text-brand-700 underline">
                <Typed>{l.fullName}</Typed>
              </Link>
              <a href={`tel:${l.phone}`} className="whitespace-nowrap text-brand-700 underline">
                {l.phone}
              </a>
              <span className="text-slate-600">{`enrolled since ${l.since}`}</span>
              <span className="text-slate-600">
                {"owner: "}
                {l.ownerName ? <Typed>{l.ownerName}</Typed> : "Unassigned"}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-2 text-sm text-slate-600">No student is enrolled in this batch yet.</p>
      )}
      {others.length ? <p className="mt-2 text-sm text-slate-600">{`Also taken: ${others.join("; ")}.`}</p> : null}
    </section>
  );
}
