import { Link } from "react-router";
import type { PipelineFigures } from "~/services/pipeline-figures.server";
import { WeeklyChart } from "./weekly-chart";
import { Typed } from "~/components/ui/typed";

type Funnel = PipelineFigures["funnels"][number];
const FUNNEL_ROWS: [string, (f: Funnel) => string | number][] = [
  ["Received", (f) => f.received],
  ["Contacted", (f) => f.contacted],
  ["Enrolled", (f) => f.enrolled],
  ["Closed", (f) => f.closed],
  ["Conversion", (f) => `${f.conversion}%`],
];

type Pipeline = Omit<PipelineFigures, "myFollowUps"> & {
  myFollowUps: { dueToday: number; overdue: number; next: { id: string; fullName: string; at: string }[] };
};

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `pipeline-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-bold text-brand-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function CountTable({
  caption,
  rows,
  heading,
  link,
}: {
  caption: string;
  rows: { value: string; count: number }[];
  heading: string;
  link: (value: string) => string;
}) {
  if (!rows.length) return <p className="text-sm text-slate-600">No enquiries in the last 90 days.</p>;
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="py-1 pr-4 font-semibold text-slate-700">
            {heading}
          </th>
          <th scope="col" className="py-1 text-right font-semibold text-slate-700">
            Enquiries
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.value} className="border-t border-slate-100">
            <td className="py-1 pr-4">
              <Link to={link(r.value)} className="text-brand-700 hover:underline">
                {r.value}
              </Link>
            </td>
            <td className="py-1 text-right">{r.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The enrolment pipeline on the dashboard: your follow-ups, the weekly trend, the funnel, and where leads come from. */
export function PipelinePanels({ pipeline }: { pipeline: Pipeline }) {
  const mine = pipeline.myFollowUps;
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-2">
      <Section title="Your follow-ups">
        <p className="text-sm text-slate-800">
          <Link to="/admin/enquiries?assignee=mine&followUp=due" className="font-semibold text-brand-700 hover:underline" data-testid="follow-ups-due">
            {mine.dueToday} due today
          </Link>
          {" · "}
          <Link
            to="/admin/enquiries?assignee=mine&followUp=overdue"
            className={`font-semibold hover:underline ${mine.overdue ? "text-red-700" : "text-brand-700"}`}
            data-testid="follow-ups-overdue"
          >
            {mine.overdue} overdue
          </Link>
        </p>
        {mine.next.length ? (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {mine.next.map((f) => (
              <li key={f.id} className="flex justify-between gap-3 py-2">
                <Link to={`/admin/enquiries/${f.id}`} className="min-w-0 font-semibold wrap-anywhere text-brand-800 hover:underline">
                  <Typed>{f.fullName}</Typed>
                </Link>
                <span className="text-slate-600">{f.at}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-slate-600">Nothing to follow up today.</p>
        )}
      </Section>
      <Section title="Funnel">
        {/* Stages down, periods across: two number columns fit a 375 px phone, five did not. */}
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Enquiries received in the period, by how far they got</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-2 font-semibold text-slate-700">
                Stage
              </th>
              {pipeline.funnels.map((f) => (
                <th key={f.days} scope="col" className="py-1 pl-2 text-right font-semibold text-slate-700">
                  Last {f.days} days
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {FUNNEL_ROWS.map(([label, value]) => (
              <tr key={label} className="border-t border-slate-100">
                <th scope="row" className="py-1 pr-2 font-normal">
                  {label}
                </th>
                {pipeline.funnels.map((f) => (
                  <td key={f.days} className="py-1 pl-2 text-right tabular-nums">
                    {value(f)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-xs text-slate-600">
          Received: every enquiry of the period. Contacted: answered (its status moved on from New). Conversion: the share now Enrolled.
        </p>
      </Section>
      <div className="lg:col-span-2">
        <Section title="Enquiries per week">
          <WeeklyChart weeks={pipeline.weekly} />
        </Section>
      </div>
      <Section title="By course (last 90 days)">
        <CountTable
          caption="Enquiries by course, last 90 days"
          heading="Course"
          rows={pipeline.byCourse}
          link={(v) => `/admin/enquiries?course=${encodeURIComponent(v)}`}
        />
      </Section>
      <Section title="By source (last 90 days)">
        <CountTable
          caption="Enquiries by source, last 90 days"
          heading="Source"
          rows={pipeline.bySource}
          link={(v) => `/admin/enquiries?source=${encodeURIComponent(v)}`}
        />
      </Section>
    </div>
  );
}
