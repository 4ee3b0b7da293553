import type { Route } from "./+types/admin.enquiries.export[.]csv";
import { requireStaff } from "~/web/actor.server";
import { csvResponse, type CsvColumn } from "~/web/csv-export.server";
import { readEnquiryListQuery } from "~/web/enquiry-list-query";
import { siteToday } from "~/util/dates";
import { attachmentDisplayName } from "~/infra/uploads.server";
import { listAllSchedules } from "~/models/schedule.server";
import { listStaffNames } from "~/models/user.server";
import { batchTitle } from "~/services/waitlist.server";
import { exportEnquiries, type EnquiryRecord } from "~/services/enquiry-lists.server";

/**
 * The enquiries of the current list (its tab, search and filters: the list's query string) as a CSV file,
 * streamed a page of rows at a time so 100,000 rows stay flat in memory.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const { query } = readEnquiryListQuery(new URL(request.url));
  const [staff, batches] = await Promise.all([listStaffNames(), listAllSchedules()]);
  const names = new Map(staff.map((u) => [u.id, u.name]));
  const batchNames = new Map(batches.map((s) => [s.id, batchTitle(s)]));
  const columns: CsvColumn<EnquiryRecord>[] = [
    { header: "id", value: (e) => e.id },
    { header: "createdAt", value: (e) => e.createdAt },
    { header: "fullName", value: (e) => e.fullName },
    { header: "email", value: (e) => e.email },
    { header: "phone", value: (e) => e.phone },
    { header: "preferredCourse", value: (e) => e.preferredCourse },
    { header: "preferredMode", value: (e) => e.preferredMode },
    { header: "status", value: (e) => e.status },
    { header: "whatsappNotifications", value: (e) => (e.whatsappNotifications ? "yes" : "no") },
    { header: "message", value: (e) => e.message },
    { header: "assignee", value: (e) => (e.assigneeId ? (names.get(e.assigneeId) ?? "(deleted user)") : "") },
    { header: "followUpAt", value: (e) => e.followUpAt },
    { header: "batch", value: (e) => (e.scheduleId ? (batchNames.get(e.scheduleId) ?? "(deleted batch)") : "") },
    { header: "source", value: (e) => e.sourceLabel },
    { header: "utmSource", value: (e) => e.source.utmSource },
    { header: "utmMedium", value: (e) => e.source.utmMedium },
    { header: "utmCampaign", value: (e) => e.source.utmCampaign },
    { header: "referrer", value: (e) => e.source.referrer },
    { header: "form", value: (e) => e.source.form },
    { header: "firstStatusChangeAt", value: (e) => e.firstStatusChangeAt },
    { header: "possibleDuplicateOf", value: (e) => e.duplicateOf.join(" ") },
    { header: "attachments", value: (e) => e.filePaths.map(attachmentDisplayName).join("; ") },
  ];
  return csvResponse(`enquiries-${siteToday()}.csv`, columns, exportEnquiries(actor, query));
}
