export type Column<T> = {
  header: string;
  cell: (item: T) => React.ReactNode;
  /** Extra classes for this column's cells, e.g. "whitespace-nowrap". */
  className?: string;
  /** Hide the small label in the narrow card view (for the first, self-explanatory column). */
  hideLabelOnCards?: boolean;
  /** Something beside the header's text (the enquiries' "select this page" box). */
  headerExtra?: React.ReactNode;
};

/**
 * A list that is a table on wide screens and a stack of cards below 768 px. It is ONE <table> restyled
 * by CSS, not two copies, so the page holds each row once (screen readers and tests see it once).
 * In the card view each cell shows its column header as a small label.
 */
export function DataList<T>({
  items,
  columns,
  rowKey,
  caption,
  empty,
  dense = false,
}: {
  items: T[];
  columns: Column<T>[];
  rowKey: (item: T) => string;
  /** Read by screen readers; visually hidden. */
  caption: string;
  /** Shown instead of the table when there are no items, e.g. "No users found". */
  empty: string;
  /** Narrower cell padding on wide screens, for a list of many columns beside the sidebar. */
  dense?: boolean;
}) {
  const padX = dense ? "md:px-2.5" : "md:px-4";
  if (items.length === 0) {
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-10 text-center text-slate-600">{empty}</p>;
  }
  return (
    <div className="md:overflow-x-auto md:rounded-lg md:border md:border-slate-200 md:bg-white md:shadow-sm">
      <table className={`block w-full text-left text-sm md:table ${dense ? "md:text-[13px]" : ""}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="sr-only md:not-sr-only md:table-header-group md:bg-slate-50">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`px-4 py-3 ${padX} text-xs font-semibold tracking-wide text-slate-600 uppercase`}>
                {c.headerExtra ? (
                  <span className="flex items-center gap-3">
                    {c.headerExtra}
                    {c.header}
                  </span>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="block space-y-3 md:table-row-group md:space-y-0 md:divide-y md:divide-slate-200">
          {items.map((item) => (
            <tr
              key={rowKey(item)}
              className="block rounded-lg border border-slate-200 bg-white p-4 shadow-sm md:table-row md:rounded-none md:border-0 md:p-0 md:shadow-none"
            >
              {columns.map((c) => (
                <td key={c.header} className={`flex items-start gap-3 py-1 md:table-cell ${padX} md:py-3 md:align-middle ${c.className ?? ""}`}>
                  {c.hideLabelOnCards ? null : (
                    <span aria-hidden="true" className="w-24 shrink-0 text-xs font-semibold text-slate-500 uppercase md:hidden">
                      {c.header}
                    </span>
                  )}
                  <div className="min-w-0 flex-1">{c.cell(item)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
