import { randomUUID } from "node:crypto";
import { data } from "react-router";
import type { Route } from "./+types/admin.schedules.$id.edit";
import { requireStaff } from "~/web/actor.server";
import { formFailureData, type FormFailureData } from "~/web/admin-actions.server";
import { formToObject } from "~/web/api-body.server";
import { redirectWithFlash } from "~/web/flash.server";
import { listHref } from "~/web/list-query";
import { loadCourseOptions } from "~/web/list-page.server";
import { DELIVERY_MODE_LABELS, PUBLICATION_STATE_LABELS } from "~/schemas/values";
import { SCHEDULE_FIELD_LABELS, SCHEDULE_SAVE_FAILED } from "~/schemas/schedule";
import { isServiceError } from "~/services/service-error";
import { batchForStaff, seatsOffered, updateSchedule } from "~/services/schedules.server";
import { DialogRoute, useBackTo } from "~/components/admin/dialog-route";
import { ScheduleForm } from "~/components/admin/schedule-form";
import { BatchWaitlist } from "~/components/admin/batch-waitlist";
import { BatchRoster } from "~/components/admin/batch-roster";
import { EditConflictNotice } from "~/components/admin/edit-conflict";
import { formatDateTime } from "~/util/dates";

export const meta: Route.MetaFunction = () => [{ title: "Edit Schedule | Admin" }];

/** After every post, refused ones too: a form refused for a change meanwhile must be drawn again from what is stored now. */
export function shouldRevalidate() {
  return true;
}

/** The batch's staff screen: its form, who holds its seats and its waitlist, together. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const [batch, courses] = await Promise.all([
    batchForStaff(params.id).catch((error: unknown) => {
      if (isServiceError(error, "notFound")) throw data("Schedule not found", { status: 404 });
      throw error;
    }),
    loadCourseOptions(),
  ]);
  const { schedule } = batch;
  const waitlist = batch.waitlist.map((l) => ({
    id: l.id,
    enquiryId: l.enquiryId,
    fullName: l.fullName,
    email: l.email,
    joined: formatDateTime(l.joinedAt),
    offeredUntil: l.offerExpiresAt ? formatDateTime(l.offerExpiresAt) : null,
  }));
  const roster = batch.roster.map((l) => ({
    enquiryId: l.enquiryId,
    fullName: l.fullName,
    phone: l.phone,
    ownerName: l.ownerName,
    since: formatDateTime(l.since),
  }));
  // A fresh key each time the form is drawn: a post of this drawing is applied once.
  return { schedule, courses, waitlist, roster, heldOtherwise: batch.heldOtherwise, formKey: randomUUID() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireStaff({ request, context });
  const form = await request.formData();
  const back = listHref("/admin/schedules", new URL(request.url).search);
  let offeredTo: string[];
  try {
    ({ offeredTo } = await updateSchedule(actor, params.id, formToObject(form)));
  } catch (error) {
    // Deleted meanwhile (another tab, a colleague): back to the list with the spec's message.
    if (isServiceError(error, "notFound")) return redirectWithFlash(request, back, { kind: "error", message: SCHEDULE_SAVE_FAILED });
    const courses = await loadCourseOptions();
    return formFailureData(error, form, SCHEDULE_SAVE_FAILED, {
      what: "a schedule",
      fields: {
        labels: SCHEDULE_FIELD_LABELS,
        valueText: { course: Object.fromEntries(courses.map((c) => [c.id, c.title])), mode: DELIVERY_MODE_LABELS, state: PUBLICATION_STATE_LABELS },
      },
    });
  }
  // New seats go to the waitlist first: say who was offered them, so nobody is surprised by a "full" batch.
  const offered = offeredTo.length ? ` ${seatsOffered(offeredTo)} (each held for them until they answer).` : "";
  return redirectWithFlash(request, back, { kind: "notice", message: `Schedule saved.${offered}` });
}

export default function EditSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const backTo = useBackTo("/admin/schedules");
  const { schedule, courses, waitlist, roster, heldOtherwise, formKey } = loaderData;
  const failure = actionData as FormFailureData | undefined;
  return (
    <DialogRoute title="Edit Schedule" description={`${schedule.seatsTaken} of ${schedule.totalSeats} taken`} backTo={backTo}>
      <EditConflictNotice conflict={failure?.conflict} className="mb-4" />
      {/* Keyed by the version: after a refusal the form is drawn again from what the batch holds now. */}
      <ScheduleForm
        key={schedule.version}
        courses={courses}
        defaultValue={schedule}
        lastResult={failure?.result}
        cancelTo={backTo}
        seats={{ left: schedule.seats, taken: schedule.seatsTaken }}
        guard={{ version: schedule.version, formKey }}
      />
      <BatchRoster lines={roster} taken={schedule.seatsTaken} total={schedule.totalSeats} heldOtherwise={heldOtherwise} />
      <BatchWaitlist lines={waitlist} />
    </DialogRoute>
  );
}
