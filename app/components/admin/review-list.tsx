import { Form } from "react-router";
import { Stars } from "~/components/ui/icons";
import type { Review } from "~/models/review.server";
import { DataList } from "./data-list";
import { DeleteButton } from "./confirm-delete";
import { StatusBadge } from "./status-badge";
import { EditLink } from "./edit-link";
import { PublicationBadge } from "./publication-fields";
import { Typed } from "~/components/ui/typed";

function Student({ r }: { r: Review }) {
  return (
    <div className="flex items-center gap-3">
      {/* Decorative: the name sits right beside it. */}
      <img src={r.image} alt="" width={40} height={40} loading="lazy" className="size-10 shrink-0 rounded-full bg-slate-200 object-cover" />
      <div className="min-w-0">
        <div className="font-semibold text-slate-900">
          <Typed>{r.name}</Typed>
        </div>
        <div className="text-slate-600">{r.position}</div>
      </div>
    </div>
  );
}

/** Manage Reviews (spec §2). Approve is a POST to the list's action and shows only for pending reviews. */
export function ReviewList({ reviews, search }: { reviews: Review[]; search: string }) {
  return (
    <DataList
      items={reviews}
      rowKey={(r) => r.id}
      caption="Reviews"
      empty="No reviews found for the selected filter."
      columns={[
        { header: "Student", hideLabelOnCards: true, cell: (r) => <Student r={r} /> },
        {
          // What staff approve: the text itself, before the Approve button (long ones cut at three lines; Edit shows it whole).
          header: "Review",
          cell: (r) => (
            <p className="line-clamp-3 text-slate-700 md:max-w-xs" title={r.review}>
              <Typed>{r.review}</Typed>
            </p>
          ),
        },
        { header: "Rating", cell: (r) => <Stars rating={r.rating} /> },
        { header: "Type", cell: (r) => (r.type === "video" ? "Video" : "Text") },
        { header: "Course", cell: (r) => r.course },
        { header: "Status", cell: (r) => (r.approved ? <StatusBadge tone="green">Approved</StatusBadge> : <StatusBadge tone="yellow">Pending</StatusBadge>) },
        { header: "Publication", cell: (r) => <PublicationBadge state={r.state} publishAt={r.publishAt} /> },
        {
          header: "Actions",
          className: "md:whitespace-nowrap md:text-right",
          cell: (r) => (
            <div className="flex flex-wrap items-center gap-1 md:flex-nowrap md:justify-end">
              {r.approved ? null : (
                <Form method="post" action={`/admin/reviews${search}`} preventScrollReset>
                  <input type="hidden" name="id" value={r.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="approve"
                    aria-label={`Approve review by ${r.name}`}
                    className="inline-flex items-center rounded-md px-2.5 py-1.5 text-sm font-semibold text-green-800 hover:bg-green-50"
                  >
                    Approve
                  </button>
                </Form>
              )}
              <EditLink to={`/admin/reviews/${r.id}/edit${search}`} itemName={`review by ${r.name}`} />
              <DeleteButton
                to={`/admin/reviews/${r.id}/delete${search}`}
                itemName={`review by ${r.name}`}
                confirmMessage="Are you sure you want to delete this review?"
              />
            </div>
          ),
        },
      ]}
    />
  );
}
