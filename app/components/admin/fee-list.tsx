import { Form, Link } from "react-router";
import { DUE_STATE_TONE } from "~/components/ui/badge-tones";
import { DUE_STATE_LABELS, FEE_VIEW_LABELS, FEE_VIEWS, type FeeView } from "~/schemas/fee-values";
import type { FeeFigures, FeeRow } from "~/services/fee-lists.server";
import { formatDate } from "~/util/dates";
import { formatPaise } from "~/util/money";
import { BUTTON_STYLES } from "./buttons";
import { INPUT_CLASS } from "./form-field";
import { StatusBadge } from "./status-badge";

/** Collected this month, outstanding, overdue: the Fees screen's and the dashboard's figures. */
export function FeeFiguresPanel({ figures }: { figures: FeeFigures }) {
  const items = [
    ["Collected this month", figures.collectedThisMonthPaise],
    ["Outstanding", figures.outstandingPaise],
    ["Overdue", figures.overduePaise],
  ] as const;
  return (
    <dl className="mb-6 grid gap-3 sm:grid-cols-3">
      {items.map(([label, v]) => (
        <div key={label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">{label}</dt>
          <dd className="text-xl font-bold text-slate-900">{formatPaise(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

type Choices = { courses: string[]; batches: { id: string; courseName: string; startDate: string }[] };

/** The dues of the chosen view and filters (a GET form: the URL holds them, JavaScript or not), each with Record payment. */
export function FeeList({
  rows,
  total,
  sumLeftPaise,
  choices,
  query,
}: {
  rows: FeeRow[];
  total: number;
  sumLeftPaise: number;
  choices: Choices;
  query: { view: FeeView; scheduleId?: string; course?: string };
}) {
  return (
    <div className="space-y-4">
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <label className="text-sm font-medium text-slate-700">
          Show
          <select name="view" defaultValue={query.view} className={`${INPUT_CLASS} mt-1`}>
            {FEE_VIEWS.map((v) => (
              <option key={v} value={v}>
                {FEE_VIEW_LABELS[v]}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-700">
          Batch
          <select name="batch" defaultValue={query.scheduleId ?? ""} className={`${INPUT_CLASS} mt-1`}>
            <option value="">All batches</option>
            {choices.batches.map((b) => (
              <option key={b.id} value={b.id}>
                {b.courseName}, {formatDate(b.startDate)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-700">
          Course
          <select name="course" defaultValue={query.course ?? ""} className={`${INPUT_CLASS} mt-1`}>
            <option value="">All courses</option>
            {choices.courses.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={BUTTON_STYLES.secondary}>
          Apply
        </button>
      </Form>
      <p className="text-sm text-slate-700">
        {FEE_VIEW_LABELS[query.view]}: {total} {total === 1 ? "due" : "dues"}, {formatPaise(sumLeftPaise)} left to pay.
      </p>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-slate-600">No dues found for the selected filter.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{FEE_VIEW_LABELS[query.view]}</caption>
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th className="px-3 py-2 font-medium">Student</th>
                <th className="px-3 py-2 font-medium">Course and due</th>
                <th className="px-3 py-2 font-medium">Date</th>
                <th className="px-3 py-2 text-right font-medium">Left to pay</th>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-t border-slate-100" data-testid="fee-row">
                  <td className="px-3 py-2">
                    <span className="font-semibold text-slate-900">{r.billingName}</span>
                    <br />
                    <span className="text-slate-600">{r.phone}</span>
                  </td>
                  <td className="px-3 py-2">
                    {r.courseTitle}: {r.label}
                    {r.invoiceNumber ? <span className="block text-slate-600">Invoice {r.invoiceNumber}</span> : null}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {formatDate(r.dueDate)}
                    {r.daysOverdue > 0 ? <span className="block text-red-800">{r.daysOverdue} days overdue</span> : null}
                  </td>
                  <td className="px-3 py-2 text-right whitespace-nowrap">{formatPaise(r.leftPaise)}</td>
                  <td className="px-3 py-2">
                    <StatusBadge tone={DUE_STATE_TONE[r.state]}>{DUE_STATE_LABELS[r.state]}</StatusBadge>
                  </td>
                  <td className="px-3 py-2">
                    <Link to={`/admin/enquiries/${r.enquiryId}#fees`} className={BUTTON_STYLES.primary}>
                      Record payment<span className="sr-only"> for {r.billingName}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
