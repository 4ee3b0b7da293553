import { Link, useLocation } from "react-router";
import type { Route } from "./+types/admin.fees";
import { FeeFiguresPanel, FeeList } from "~/components/admin/fee-list";
import { PageHeader } from "~/components/admin/page-header";
import { Pagination } from "~/components/admin/pagination";
import { requireStaff } from "~/web/actor.server";
import { readFeeListQuery } from "~/web/fee-list-query";
import { feeFigures, listFees } from "~/services/fee-lists.server";

export const meta: Route.MetaFunction = () => [{ title: "Fees · Admin" }];

const LIMIT = 50;

/** Everyone's open dues (overdue first), this month's collections and what is outstanding; filters in the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const query = readFeeListQuery(new URL(request.url));
  const [list, figures] = await Promise.all([listFees(actor, { ...query, limit: LIMIT }), feeFigures()]);
  return { ...list, figures, query, pages: Math.max(1, Math.ceil(list.total / LIMIT)) };
}

export default function Fees({ loaderData }: Route.ComponentProps) {
  const { search } = useLocation();
  const { rows, total, sumLeftPaise, choices, figures, query, pages } = loaderData;
  return (
    <>
      <PageHeader
        title="Fees"
        description="Dues of enrolled students, overdue first, and what came in. Record a payment from each row; dates are Hyderabad days."
        actions={
          <>
            <Link
              to="/admin/fees/plans"
              className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            >
              Fee plans
            </Link>
            <a
              href={`/admin/fees/export.csv${search}`}
              className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
              download
            >
              Export CSV
            </a>
          </>
        }
      />
      <FeeFiguresPanel figures={figures} />
      <FeeList rows={rows} total={total} sumLeftPaise={sumLeftPaise} choices={choices} query={query} />
      <Pagination page={query.page} pages={pages} total={total} noun={["due", "dues"]} />
    </>
  );
}
