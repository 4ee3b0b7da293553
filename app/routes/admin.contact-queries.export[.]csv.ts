import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin.contact-queries.export[.]csv";
import { csvResponse, type CsvColumn } from "~/web/csv-export.server";
import { siteDateTimeText, siteToday } from "~/util/dates";
import { readListQuery } from "~/web/list-query";
import { eachContactQuery, type ContactQuery } from "~/models/contact-query.server";
import { CONTACT_STATUS_LABELS, CONTACT_STATUSES } from "~/schemas/values";

const COLUMNS: CsvColumn<ContactQuery>[] = [
  { header: "Query ID", value: (c) => c.id },
  { header: "Received (IST)", value: (c) => siteDateTimeText(c.createdAt) },
  { header: "Name", value: (c) => c.name },
  { header: "Email", value: (c) => c.email },
  { header: "Phone", value: (c) => c.phone },
  { header: "Subject", value: (c) => c.subject },
  { header: "Message", value: (c) => c.message },
  { header: "Status", value: (c) => CONTACT_STATUS_LABELS[c.status] },
  { header: "Last change (IST)", value: (c) => siteDateTimeText(c.updatedAt) },
];

/** The contact queries of the current list (tab and search: the list's query string) as a CSV file, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const { status, q } = readListQuery(new URL(request.url), CONTACT_STATUSES);
  return csvResponse(`contact-queries-${siteToday()}.csv`, COLUMNS, eachContactQuery({ status, q }));
}
