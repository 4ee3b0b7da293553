import { Link, useLocation } from "react-router";

function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page > 1) params.set("page", String(page));
  else params.delete("page");
  const s = params.toString();
  return `${pathname}${s ? `?${s}` : ""}`;
}

/** Previous / Next links in the ?page= search param, keeping the other params (tabs, search). */
/** `noun` is [singular, plural]: "1 user", "2 users". */
/** `capped`: the list has more than `total` (a count that stopped there): "10,000+ enquiries", "Page 3 of 500+". */
export function Pagination({
  page,
  pages,
  total,
  capped = false,
  noun = ["item", "items"],
}: {
  page: number;
  pages: number;
  total: number;
  capped?: boolean;
  noun?: readonly [string, string];
}) {
  const { pathname, search } = useLocation();
  const count = capped ? `${total.toLocaleString("en-US")}+ ${noun[1]}` : `${total} ${total === 1 ? noun[0] : noun[1]}`;
  if (pages <= 1) return total > 0 ? <p className="mt-4 text-sm text-slate-600">{count}</p> : null;
  const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";
  const off = "rounded-md border border-slate-200 px-3 py-1.5 text-sm font-semibold text-slate-500";
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600">
        Page {page} of {pages}
        {capped ? "+" : ""} · {count}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={pageHref(pathname, search, page - 1)} className={link} rel="prev">
            Previous
          </Link>
        ) : (
          <span className={off} aria-disabled="true">
            Previous
          </span>
        )}
        {page < pages || capped ? (
          <Link to={pageHref(pathname, search, page + 1)} className={link} rel="next">
            Next
          </Link>
        ) : (
          <span className={off} aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
