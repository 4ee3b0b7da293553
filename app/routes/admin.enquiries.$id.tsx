import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.enquiries.$id";
import { requireStaff } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import { ENQUIRY_STATUS_FAILED } from "~/web/admin-messages";
import { formatDateTime, siteToday, utcToSiteInput } from "~/util/dates";
import { redirectWithFlash } from "~/web/flash.server";
import { ageText } from "~/util/format";
import { listHref } from "~/web/list-query";
import { timelineLines } from "~/web/timeline-lines";
import { enquiryWaitlistStatus } from "~/services/waitlist.server";
import { attachmentDisplayName } from "~/infra/uploads.server";
import { getEnquiry } from "~/models/enquiry.server";
import { listAllSchedules } from "~/models/schedule.server";
import { listStaffNames } from "~/models/user.server";
import { ENQUIRY_FORM_LABELS, ENQUIRY_STATUS_LABELS } from "~/schemas/values";
import { addEnquiryNote, assignEnquiry, batchLabel, enquiryTimeline, setEnquiryBatch, setEnquiryStatus, setFollowUp } from "~/services/enquiries.server";
import { followUpOverdue, getEnquiryRecord, pastResponsePromise, waitingMs } from "~/services/enquiry-lists.server";
import { isServiceError } from "~/services/service-error";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { EnquiryDetails } from "~/components/admin/enquiry-details";
import { FLASH_IN_DIALOG } from "~/components/admin/dialog-flash";

// The dialog shows the last write's message itself (DialogFlash).
export const handle = FLASH_IN_DIALOG;

export const meta: Route.MetaFunction = () => [{ title: "Enquiry Details | Admin" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const record = await getEnquiryRecord(params.id).catch((error: unknown) => {
    if (isServiceError(error, "notFound")) throw data("Enquiry not found", { status: 404 });
    throw error;
  });
  const [timeline, staff, schedules, duplicates, waitlist] = await Promise.all([
    enquiryTimeline(record.id),
    listStaffNames(),
    listAllSchedules(),
    Promise.all(record.duplicateOf.map((id) => getEnquiry(id))),
    enquiryWaitlistStatus(record.id),
  ]);
  const { filePaths, duplicateOf: _d, ...enquiry } = record;
  const files = filePaths.map((stored) => ({
    href: `/admin/enquiries/${encodeURIComponent(record.id)}/files/${encodeURIComponent(stored)}`,
    label: attachmentDisplayName(stored),
  }));
  const today = siteToday();
  // Batches still to come, and the one it names whatever its dates.
  const batches = schedules
    .filter((s) => s.endDate >= today || s.id === record.scheduleId)
    .map((s) => ({ id: s.id, label: batchLabel(s), full: s.seats <= 0 }));
  const batch = schedules.find((s) => s.id === record.scheduleId);
  const now = Date.now();
  const waiting = waitingMs(record, now);
  const s = record.source;
  const sourceLines = [
    { label: "Form", value: s.form ? ENQUIRY_FORM_LABELS[s.form] : "Not recorded" },
    ...(s.utmSource ? [{ label: "Campaign source", value: s.utmSource }] : []),
    ...(s.utmMedium ? [{ label: "Medium", value: s.utmMedium }] : []),
    ...(s.utmCampaign ? [{ label: "Campaign", value: s.utmCampaign }] : []),
    { label: "Referred by", value: s.referrer ?? "Direct (no other site)" },
  ];
  return {
    enquiry,
    files,
    extras: {
      sourceLines,
      batch: batch ? `${batchLabel(batch)}, ${batch.seats} of ${batch.totalSeats} seats left` : record.scheduleId ? "(deleted batch)" : null,
      waitlist: waitlist
        ? waitlist.status === "offered" && waitlist.offerExpiresAt
          ? `Offered a seat in ${waitlist.batch}, held until ${formatDateTime(waitlist.offerExpiresAt)}`
          : `Position ${waitlist.position} for ${waitlist.batch}`
        : null,
      duplicates: duplicates.filter((d) => d !== null).map((d) => ({ id: d.id, fullName: d.fullName, createdAt: d.createdAt })),
      waiting: waiting === null ? null : ageText(waiting),
      late: pastResponsePromise(waiting),
      followUp: {
        assigneeId: record.assigneeId,
        meId: actor.user.id,
        staff,
        followUpInput: record.followUpAt ? utcToSiteInput(record.followUpAt) : "",
        followUpText: record.followUpAt ? formatDateTime(record.followUpAt) : null,
        overdue: followUpOverdue(record, now),
        scheduleId: record.scheduleId,
        batches,
      },
      timeline: timelineLines(timeline),
    },
  };
}

const DONE: Record<string, string> = {
  assign: "Owner saved.",
  "assign-me": "Assigned to you.",
  "follow-up": "Follow-up saved.",
  "clear-follow-up": "Follow-up cleared.",
  batch: "Batch saved.",
  note: "Note added.",
};

/**
 * intent=status sets any status (spec §4), closes the details and reloads the list. The follow-up forms (owner,
 * Assign to me, next follow-up, batch, a note) come back to these details with a message.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const { search } = new URL(request.url);
  const back = listHref("/admin/enquiries", search);
  const details = `/admin/enquiries/${encodeURIComponent(params.id)}${listHref("", search)}`;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const input = formToObject(form);
  try {
    if (intent === "status") {
      const saved = await setEnquiryStatus(actor, params.id, input);
      return redirectWithFlash(request, back, { kind: "notice", message: `Enquiry marked as ${ENQUIRY_STATUS_LABELS[saved.status]}.` });
    }
    if (intent === "assign") await assignEnquiry(actor, params.id, input);
    else if (intent === "assign-me") await assignEnquiry(actor, params.id, { assigneeId: actor.user.id });
    else if (intent === "follow-up") await setFollowUp(actor, params.id, input);
    else if (intent === "clear-follow-up") await setFollowUp(actor, params.id, { followUpAt: null });
    else if (intent === "batch") await setEnquiryBatch(actor, params.id, input);
    else if (intent === "note") await addEnquiryNote(actor, params.id, input);
    else return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_STATUS_FAILED });
    return redirectWithFlash(request, details, { kind: "notice", message: DONE[intent] });
  } catch (error) {
    if (!isServiceError(error)) console.error(`[admin] ${intent} on an enquiry failed:`, error);
    // A rule's own words (a full batch, an empty note) help more than the generic failure; a status the
    // buttons do not offer gets the spec's message (§8).
    const ownWords = isServiceError(error) && (error.code === "batch_full" || (intent !== "status" && error.kind !== "notFound"));
    const message = ownWords ? (error as Error).message : ENQUIRY_STATUS_FAILED;
    return redirectWithFlash(request, intent === "status" || isServiceError(error, "notFound") ? back : details, { kind: "error", message });
  }
}

export default function EnquiryDetailsRoute({ loaderData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/enquiries");
  const { search } = useLocation();
  return (
    <DialogRoute title="Enquiry Details" description={loaderData.enquiry.fullName} backTo={backTo} size="lg">
      <EnquiryDetails enquiry={loaderData.enquiry} files={loaderData.files} extras={loaderData.extras} search={search} />
    </DialogRoute>
  );
}
