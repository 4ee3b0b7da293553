import { randomUUID } from "node:crypto";
import { data, useLocation } from "react-router";
import type { Route } from "./+types/admin.enquiries.$id";
import { requireStaff } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import { ENQUIRY_STATUS_FAILED } from "~/web/admin-messages";
import { followUpPresets } from "~/web/follow-up-presets";
import { formatDateTime, utcToSiteInput } from "~/util/dates";
import { redirectWithFlash } from "~/web/flash.server";
import { ageText } from "~/util/format";
import { listHref } from "~/web/list-query";
import { timelineLines } from "~/web/timeline-lines";
import { enquiryWaitlistStatus, batchTitle } from "~/services/waitlist.server";
import { attachmentDisplayName } from "~/infra/uploads.server";
import { getEnquiry } from "~/models/enquiry.server";
import { listAllSchedules } from "~/models/schedule.server";
import { listStaffNames } from "~/models/user.server";
import { ENQUIRY_FORM_LABELS, ENQUIRY_STATUS_LABELS } from "~/schemas/values";
import {
  addEnquiryNote,
  assignEnquiry,
  enquiryTimeline,
  enrolWithAddedSeat,
  logActivity,
  seatOffersMessage,
  setEnquiryBatch,
  setEnquiryStatus,
  setFollowUp,
  type ChangedEnquiry,
} from "~/services/enquiries.server";
import { followUpOverdue, getEnquiryRecord, nextInMyQueue, pastResponsePromise, upcomingBatchChoices, waitingMs } from "~/services/enquiry-lists.server";
import { isServiceError } from "~/services/service-error";
import { nextInQueueHref, readQueueRun, refusalOf } from "~/web/enquiry-desk.server";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { EnquiryDetails } from "~/components/admin/enquiry-details";
import { FLASH_IN_DIALOG, SAVED_ANCHOR } from "~/components/admin/dialog-flash";
import { feeAction, isFeeIntent } from "~/web/fee-actions.server";
import { enrolmentFeeChoices, feePanel } from "~/web/fee-views.server";

// The dialog shows the last write's message itself (DialogFlash, or beside the form that made it: SectionFlash).
export const handle = FLASH_IN_DIALOG;

export const meta: Route.MetaFunction = () => [{ title: "Enquiry Details | Admin" }];

/** After every post, refused ones too: a form refused for a change meanwhile must show what the enquiry holds now. */
export function shouldRevalidate() {
  return true;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const url = new URL(request.url);
  const run = readQueueRun(url.searchParams.get("run"));
  const record = await getEnquiryRecord(params.id).catch((error: unknown) => {
    if (isServiceError(error, "notFound")) throw data("Enquiry not found", { status: 404 });
    throw error;
  });
  const [timeline, staff, schedules, duplicates, waitlist, next] = await Promise.all([
    enquiryTimeline(record.id),
    listStaffNames(),
    listAllSchedules(),
    Promise.all(record.duplicateOf.map((id) => getEnquiry(id))),
    enquiryWaitlistStatus(record.id),
    nextInMyQueue(actor, record.id, run),
  ]);
  const [fees, feeChoices] = await Promise.all([feePanel(actor, record.id), enrolmentFeeChoices(record)]);
  const { filePaths, duplicateOf: _d, ...enquiry } = record;
  const files = filePaths.map((stored) => ({
    href: `/admin/enquiries/${encodeURIComponent(record.id)}/files/${encodeURIComponent(stored)}`,
    label: attachmentDisplayName(stored),
  }));
  const batches = upcomingBatchChoices(schedules, record.scheduleId, record.preferredCourse);
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
  // A fresh key each time the page is drawn: a post of this drawing is applied once (app/models/form-submission.server.ts).
  const formKey = randomUUID();
  const followUpText = record.followUpAt ? formatDateTime(record.followUpAt) : null;
  return {
    enquiry,
    files,
    extras: {
      sourceLines,
      batch: batch ? `${batchTitle(batch)}, ${batch.seats} of ${batch.totalSeats} seats left` : record.scheduleId ? "(deleted batch)" : null,
      waitlist: waitlist
        ? waitlist.status === "offered" && waitlist.offerExpiresAt
          ? `Offered a seat in ${waitlist.batch}, held until ${formatDateTime(waitlist.offerExpiresAt)} IST`
          : `Position ${waitlist.position} for ${waitlist.batch}`
        : null,
      duplicates: duplicates.filter((d) => d !== null).map((d) => ({ id: d.id, fullName: d.fullName, createdAt: d.createdAt })),
      waiting: waiting === null ? null : ageText(waiting),
      late: pastResponsePromise(waiting),
      escalated: record.escalatedAt !== null,
      formKey,
      // Moving on counts as done with this one: the next's Next never comes back to it in this run.
      nextInQueue: next ? nextInQueueHref(next, url.search, [...run, record.id]) : null,
      activity: {
        enquiryId: record.id,
        fullName: record.fullName,
        course: record.preferredCourse,
        run: run.join(","),
        version: record.version,
        formKey,
        status: record.status,
        followUpText,
        presets: followUpPresets(new Date(now)),
        ownerDefault: record.assigneeId ?? actor.user.id,
        assigneeId: record.assigneeId,
        staff,
        scheduleId: record.scheduleId,
        batches,
        fees: record.status === "enrolled" ? undefined : feeChoices,
      },
      fees: { ...fees, formKey },
      followUp: {
        enquiryId: record.id,
        fullName: record.fullName,
        version: record.version,
        formKey,
        assigneeId: record.assigneeId,
        meId: actor.user.id,
        staff,
        followUpInput: record.followUpAt ? utcToSiteInput(record.followUpAt) : "",
        followUpText,
        overdue: followUpOverdue(record, now),
        scheduleId: record.scheduleId,
        course: record.preferredCourse,
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

/** Which section of the details a form sits in: its message is shown there, and without JavaScript the page comes back there. */
const SECTION: Record<string, string> = {
  assign: "follow-up",
  "assign-me": "follow-up",
  "follow-up": "follow-up",
  "clear-follow-up": "follow-up",
  batch: "follow-up",
  "add-seat": "follow-up",
  note: "timeline",
};

/** Which form an intent comes from, for a refusal shown in it. */
const FORM: Record<string, "owner" | "follow-up" | "batch" | "add-seat" | "status"> = {
  assign: "owner",
  "assign-me": "owner",
  "follow-up": "follow-up",
  "clear-follow-up": "follow-up",
  batch: "batch",
  "add-seat": "add-seat",
  status: "status",
};

/**
 * intent=status sets any status (spec §4), closes the details and reloads the list. intent=log saves a call (Log
 * activity) and comes back to #activity, or opens the next enquiry of the queue ("Save and open next"). The single
 * field forms (owner, Assign to me, follow-up, batch, a seat added, a note) come back to their section with a message.
 * A form drawn from an older version of the enquiry is refused with what it holds now beside what was chosen, and
 * a batch of another course with the question to confirm it (both shown in the form that was refused).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const { search } = new URL(request.url);
  const back = listHref("/admin/enquiries", search);
  const details = `/admin/enquiries/${encodeURIComponent(params.id)}${listHref("", search)}`;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const input = formToObject(form);
  if (intent === "log") return logCall(request, actor, params.id, { ...input, then: form.get("then") }, { back, details, search });
  if (isFeeIntent(intent)) return feeAction(request, actor, params.id, intent, input, details);
  const at = SECTION[intent];
  try {
    if (intent === "status") {
      const saved = await setEnquiryStatus(actor, params.id, input);
      return redirectWithFlash(request, back, { kind: "notice", message: withOffers(`Enquiry marked as ${ENQUIRY_STATUS_LABELS[saved.status]}.`, saved) });
    }
    let message = DONE[intent];
    if (intent === "assign") await assignEnquiry(actor, params.id, input);
    else if (intent === "assign-me") await assignEnquiry(actor, params.id, { ...input, assigneeId: actor.user.id });
    else if (intent === "follow-up") await setFollowUp(actor, params.id, input);
    else if (intent === "clear-follow-up") await setFollowUp(actor, params.id, { ...input, followUpAt: null });
    else if (intent === "batch") message = withOffers(message, await setEnquiryBatch(actor, params.id, input));
    else if (intent === "note") await addEnquiryNote(actor, params.id, input);
    else if (intent === "add-seat") {
      const { enquiry, added } = await enrolWithAddedSeat(actor, params.id, input);
      message = added ? `A seat was added for ${enquiry.fullName}, who is now enrolled.` : `${enquiry.fullName} is enrolled (a seat was free).`;
      message = withOffers(message, enquiry);
    } else return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_STATUS_FAILED });
    return redirectWithFlash(request, `${details}#${at}`, { kind: "notice", message, at });
  } catch (error) {
    if (!isServiceError(error)) console.error(`[admin] ${intent} on an enquiry failed:`, error);
    // Refused because the enquiry changed meanwhile, or for a batch of another course: the details, with the form's
    // choice kept beside what is stored now, or the question to confirm.
    const refused = refusalOf(error, FORM[intent], intent === "assign-me" ? { ...input, assigneeId: actor.user.id } : input);
    if (refused) return data({ refusal: refused.refusal }, { status: refused.status });
    // A rule's own words (a full batch, an empty note) help more than the generic failure; a status the buttons do
    // not offer gets the spec's message (§8).
    const ownWords =
      isServiceError(error) && (error.code === "batch_full" || "scheduleId" in error.fields || (intent !== "status" && error.kind !== "notFound"));
    const message = ownWords ? (error as Error).message : ENQUIRY_STATUS_FAILED;
    if (isServiceError(error, "notFound") || intent === "status") return redirectWithFlash(request, back, { kind: "error", message });
    return redirectWithFlash(request, at ? `${details}#${at}` : details, { kind: "error", message, ...(at ? { at } : {}) });
  }
}

/** A confirmation that also says who was offered the seat the change gave up ("Their seat was offered to …"). */
const withOffers = (message: string, saved: ChangedEnquiry) => [message, seatOffersMessage(saved.seatOffers)].filter(Boolean).join(" ");

/**
 * Log activity: one save. "Save and open next" opens the next enquiry of the queue that is not one saved in this run
 * of calls (the run rides in the form and the URL), at its confirmation. Refused, the page comes back at the form
 * with every choice kept and the refusal where it applies.
 */
async function logCall(
  request: Request,
  actor: Awaited<ReturnType<typeof requireStaff>>,
  id: string,
  input: Record<string, unknown>,
  { details, back, search }: { details: string; back: string; search: string },
) {
  try {
    const saved = await logActivity(actor, id, input);
    const message = withOffers(`Activity logged for ${saved.fullName}.${saved.seatAdded ? " A seat was added to the batch for them." : ""}`, saved);
    if (input.then === "next") {
      const run = [...readQueueRun(input.run), saved.id];
      const next = await nextInMyQueue(actor, saved.id, run);
      // The list, at its banner (the page's main), not at the form's #activity the post came from.
      if (!next) return redirectWithFlash(request, `${back}#admin-main`, { kind: "notice", message: `${message} Your queue is empty.` });
      return redirectWithFlash(request, nextInQueueHref(next, search, run, SAVED_ANCHOR), {
        kind: "notice",
        message: `${message} This is the next enquiry in your queue.`,
      });
    }
    return redirectWithFlash(request, `${details}#activity`, { kind: "notice", message, at: "activity" });
  } catch (error) {
    if (isServiceError(error, "notFound")) return redirectWithFlash(request, back, { kind: "error", message: ENQUIRY_STATUS_FAILED });
    const refused = refusalOf(error, "log", input);
    if (!refused) {
      console.error("[admin] logging activity on an enquiry failed:", error);
      throw error;
    }
    return data({ refusal: refused.refusal }, { status: refused.status });
  }
}

export default function EnquiryDetailsRoute({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/enquiries");
  const { pathname, search } = useLocation();
  return (
    <DialogRoute title="Enquiry Details" description={loaderData.enquiry.fullName} backTo={backTo} size="lg" focusKey={loaderData.enquiry.id}>
      <EnquiryDetails
        enquiry={loaderData.enquiry}
        files={loaderData.files}
        extras={loaderData.extras}
        search={search}
        here={`${pathname}${search}`}
        refusal={actionData && "refusal" in actionData ? actionData.refusal : undefined}
      />
    </DialogRoute>
  );
}
