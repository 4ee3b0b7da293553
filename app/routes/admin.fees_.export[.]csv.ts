import type { Route } from "./+types/admin.fees_.export[.]csv";
import { requireStaff } from "~/web/actor.server";
import { csvResponse, type CsvColumn } from "~/web/csv-export.server";
import { readFeeListQuery } from "~/web/fee-list-query";
import { DUE_STATE_LABELS } from "~/schemas/fee-values";
import { siteToday } from "~/util/dates";
import { paiseToDecimal } from "~/util/money";
import { exportFees, type FeeRow } from "~/services/fee-lists.server";

/** The Fees screen's dues (its view and filters) as CSV: amounts in rupees with two decimals, days as Hyderabad dates. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const { page: _p, ...query } = readFeeListQuery(new URL(request.url));
  const columns: CsvColumn<FeeRow>[] = [
    { header: "Student", value: (r) => r.billingName },
    { header: "Phone", value: (r) => r.phone },
    { header: "Email", value: (r) => r.email },
    { header: "Course", value: (r) => r.courseTitle },
    { header: "Due", value: (r) => r.label },
    { header: "Due date (IST)", value: (r) => r.dueDate },
    { header: "Amount (INR)", value: (r) => paiseToDecimal(r.amountPaise) },
    { header: "Paid (INR)", value: (r) => paiseToDecimal(r.paidPaise) },
    { header: "Left to pay (INR)", value: (r) => paiseToDecimal(r.leftPaise) },
    { header: "Status", value: (r) => DUE_STATE_LABELS[r.state] },
    { header: "Days overdue", value: (r) => r.daysOverdue },
    { header: "Invoice", value: (r) => r.invoiceNumber },
  ];
  return csvResponse(`fees-${query.view}-${siteToday()}.csv`, columns, exportFees(actor, query));
}
