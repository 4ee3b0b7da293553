import { scaleBand, scaleLinear } from "d3-scale";
import { formatDate } from "~/util/dates";

/**
 * Enquiries per week as a server-rendered SVG bar chart (no JavaScript needed), with the numbers in a table
 * beside it: the chart is a picture of the table, and screen readers get the table.
 */
export function WeeklyChart({ weeks }: { weeks: { weekStart: string; count: number }[] }) {
  const width = 640;
  const height = 220;
  const margin = { top: 12, right: 8, bottom: 36, left: 36 };
  const x = scaleBand<string>()
    .domain(weeks.map((w) => w.weekStart))
    .range([margin.left, width - margin.right])
    .padding(0.2);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...weeks.map((w) => w.count))])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const ticks = y.ticks(4).filter(Number.isInteger);
  const total = weeks.reduce((n, w) => n + w.count, 0);
  const short = (day: string) => formatDate(day).replace(/, \d{4}$/, "");
  return (
    // The table sits after the figure: a figure's caption must be its first or last child.
    <div className="space-y-3">
      <figure className="space-y-3">
        <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-labelledby="weekly-chart-caption">
          {ticks.map((t) => (
            <g key={t}>
              <line x1={margin.left} x2={width - margin.right} y1={y(t)} y2={y(t)} className="stroke-slate-200" />
              <text x={margin.left - 6} y={y(t)} textAnchor="end" dominantBaseline="middle" className="fill-slate-600 text-[11px]">
                {t}
              </text>
            </g>
          ))}
          {weeks.map((w, i) => (
            <g key={w.weekStart}>
              <rect x={x(w.weekStart)} y={y(w.count)} width={x.bandwidth()} height={Math.max(0, y(0) - y(w.count))} rx={2} className="fill-brand-600" />
              {i % 2 === weeks.length % 2 ? null : (
                <text x={(x(w.weekStart) ?? 0) + x.bandwidth() / 2} y={height - margin.bottom + 16} textAnchor="middle" className="fill-slate-600 text-[11px]">
                  {short(w.weekStart)}
                </text>
              )}
            </g>
          ))}
        </svg>
        <figcaption id="weekly-chart-caption" className="text-sm text-slate-700">
          Enquiries per week (weeks start on Monday, Hyderabad time): {total} in the last {weeks.length} weeks.
        </figcaption>
      </figure>
      <details className="text-sm">
        <summary className="cursor-pointer font-semibold text-brand-700">The numbers</summary>
        <table className="mt-2 w-full max-w-sm text-left">
          <caption className="sr-only">Enquiries per week</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-4 font-semibold text-slate-700">
                Week of
              </th>
              <th scope="col" className="py-1 font-semibold text-slate-700">
                Enquiries
              </th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.weekStart} className="border-t border-slate-100">
                <td className="py-1 pr-4">{formatDate(w.weekStart)}</td>
                <td className="py-1" data-testid={`week-${w.weekStart}`}>
                  {w.count}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
