import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin.contact-queries.export[.]csv";
import { csvResponse, type CsvColumn } from "~/web/csv-export.server";
import { siteToday } from "~/util/dates";
import { readListQuery } from "~/web/list-query";
import { eachContactQuery, type ContactQuery } from "~/models/contact-query.server";
import { CONTACT_STATUSES } from "~/schemas/values";

const COLUMNS: CsvColumn<ContactQuery>[] = [
  { header: "id", value: (c) => c.id },
  { header: "createdAt", value: (c) => c.createdAt },
  { header: "name", value: (c) => c.name },
  { header: "email", value: (c) => c.email },
  { header: "phone", value: (c) => c.phone },
  { header: "subject", value: (c) => c.subject },
  { header: "message", value: (c) => c.message },
  { header: "status", value: (c) => c.status },
  { header: "updatedAt", value: (c) => c.updatedAt },
];

/** The contact queries of the current list (tab and search: the list's query string) as a CSV file, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const { status, q } = readListQuery(new URL(request.url), CONTACT_STATUSES);
  return csvResponse(`contact-queries-${siteToday()}.csv`, COLUMNS, eachContactQuery({ status, q }));
}
