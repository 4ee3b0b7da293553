import type { Route } from "./+types/admin.enquiries.export[.]csv";
import { requireStaff } from "~/web/actor.server";
import { csvResponse, type CsvColumn } from "~/web/csv-export.server";
import { readEnquiryListQuery } from "~/web/enquiry-list-query";
import { siteDateTimeText, siteToday } from "~/util/dates";
import { DELIVERY_MODE_LABELS, ENQUIRY_FORM_LABELS, ENQUIRY_STATUS_LABELS } from "~/schemas/values";
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
  // Headers as the screens label things; every time in Hyderabad, as the header says.
  const columns: CsvColumn<EnquiryRecord>[] = [
    { header: "Enquiry ID", value: (e) => e.id },
    { header: "Created (IST)", value: (e) => siteDateTimeText(e.createdAt) },
    { header: "Full name", value: (e) => e.fullName },
    { header: "Email", value: (e) => e.email },
    { header: "Phone", value: (e) => e.phone },
    { header: "Preferred course", value: (e) => e.preferredCourse },
    { header: "Preferred mode", value: (e) => DELIVERY_MODE_LABELS[e.preferredMode] },
    { header: "Status", value: (e) => ENQUIRY_STATUS_LABELS[e.status] },
    { header: "WhatsApp notifications", value: (e) => (e.whatsappNotifications ? "Yes" : "No") },
    { header: "Message", value: (e) => e.message },
    { header: "Owner", value: (e) => (e.assigneeId ? (names.get(e.assigneeId) ?? "(deleted user)") : "") },
    { header: "Next follow-up (IST)", value: (e) => siteDateTimeText(e.followUpAt) },
    { header: "Batch", value: (e) => (e.scheduleId ? (batchNames.get(e.scheduleId) ?? "(deleted batch)") : "") },
    { header: "Source", value: (e) => e.sourceLabel },
    { header: "UTM source", value: (e) => e.source.utmSource },
    { header: "UTM medium", value: (e) => e.source.utmMedium },
    { header: "UTM campaign", value: (e) => e.source.utmCampaign },
    { header: "Referrer", value: (e) => e.source.referrer },
    { header: "Sent from", value: (e) => (e.source.form ? ENQUIRY_FORM_LABELS[e.source.form] : "") },
    { header: "First reply (IST)", value: (e) => siteDateTimeText(e.firstStatusChangeAt) },
    { header: "Possible duplicate of (enquiry IDs)", value: (e) => e.duplicateOf.join(" ") },
    { header: "Attachments", value: (e) => e.filePaths.map(attachmentDisplayName).join("; ") },
  ];
  return csvResponse(`enquiries-${siteToday()}.csv`, columns, exportEnquiries(actor, query));
}
