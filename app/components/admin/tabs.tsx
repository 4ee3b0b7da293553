import { Link, useLocation } from "react-router";
import { withParam, type ListParam } from "~/web/list-query";

export type TabItem = { value: string; label: string; count?: number };

/**
 * Filter tabs kept in a URL search param (e.g. ?status=new), so they survive a reload and work
 * without JavaScript. The first tab usually has the value "" (All …).
 */
export function Tabs({ param, tabs, label, basePath }: { param: ListParam; tabs: TabItem[]; label: string; basePath?: string }) {
  const location = useLocation();
  const current = new URLSearchParams(location.search).get(param) ?? "";
  const path = basePath ?? location.pathname;
  return (
    <nav aria-label={label} className="mb-4 overflow-x-auto">
      <ul className="flex min-w-max gap-1 border-b border-slate-200">
        {tabs.map((tab) => {
          const active = tab.value === current;
          return (
            <li key={tab.value || "all"}>
              <Link
                to={withParam(path, location.search, param, tab.value)}
                aria-current={active ? "page" : undefined}
                preventScrollReset
                className={`-mb-px inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-semibold ${
                  active ? "border-brand-700 text-brand-800" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
                }`}
              >
                {tab.label}
                {tab.count !== undefined ? <span className="rounded-full bg-slate-100 px-2 text-xs text-slate-700">{tab.count}</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
