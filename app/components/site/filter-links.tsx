import { DELIVERY_MODE_LABELS } from "~/schemas/public-values";
import { Link } from "react-router";

/** The batch mode filter of the home page and /schedules (DESIGN.md §4.4: hybrid batches show under both). */
export const MODE_FILTERS = [
  { value: "", label: "All Modes" },
  ...(["online", "offline", "hybrid"] as const).map((value) => ({ value, label: DELIVERY_MODE_LABELS[value] })),
];

/**
 * Filter buttons as links (?category=, ?mode=, ?course=), so a filter is a URL that works without JavaScript,
 * survives a reload and can be shared. The current one carries aria-current. Each link ends in #<id> (unless hrefFor
 * gives a fragment of its own): without JavaScript the filtered page opens at the filter and its results, not at the
 * top; with it, the page stays put.
 */
export function FilterLinks({
  label,
  options,
  current,
  hrefFor,
  id = "filters",
}: {
  label: string;
  options: { value: string; label: string }[];
  current: string;
  hrefFor: (value: string) => string;
  id?: string;
}) {
  return (
    <nav aria-label={label} id={id}>
      <ul className="flex flex-wrap justify-center gap-2">
        {options.map((o) => {
          const active = o.value === current;
          const href = hrefFor(o.value);
          return (
            <li key={o.value || "all"}>
              <Link
                to={href.includes("#") ? href : `${href}#${id}`}
                preventScrollReset
                aria-current={active ? "true" : undefined}
                className={`inline-block rounded-full border px-3 py-2 text-sm sm:px-4 font-semibold transition-colors ${
                  active ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-800 hover:border-brand-600 hover:text-brand-700"
                }`}
              >
                {o.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
