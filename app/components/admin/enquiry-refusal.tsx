import type { BatchChoice } from "~/services/enquiry-lists.server";
import { BATCH_FULL_CODE, COURSE_CHANGE_CODE } from "~/schemas/enquiry-pipeline";
import { EDIT_CONFLICT_CODE } from "~/schemas/write-guard";
import { BUTTON_STYLES } from "./buttons";

export type { FormRefusal } from "~/web/enquiry-refusal";
export { BATCH_FULL_CODE, COURSE_CHANGE_CODE as COURSE_CHANGE, EDIT_CONFLICT_CODE as EDIT_CONFLICT };

/**
 * "You chose … / Stored now …" beside a save refused because someone changed the enquiry meanwhile: the person's
 * choices are still in the form, so the button under this (a submit of the same form) applies them again in one click.
 */
export function ChoicesBeside({ chose, stored, children }: { chose: string; stored: string; children?: React.ReactNode }) {
  return (
    <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <dl className="grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-2">
        <dt className="font-semibold">You chose:</dt>
        <dd className="wrap-anywhere">{chose}</dd>
        <dt className="font-semibold">Stored now:</dt>
        <dd className="wrap-anywhere">{stored}</dd>
      </dl>
      {children ? <div className="flex flex-wrap items-center gap-2">{children}</div> : null}
    </div>
  );
}

/**
 * The question a batch of another course asks before anything is saved or sent ("Enrol Ravi Kumar (SOC Analyst
 * Training Program) in a Cloud Security Practitioner batch?"), with a button that posts the same form again with
 * confirmCourseChange=1. A plain submit: it works without JavaScript.
 */
export function CourseChangeConfirm({ id, question, batch }: { id: string; question: string; batch: BatchChoice | undefined }) {
  const enrolling = question.startsWith("Enrol ");
  return (
    <div id={id} role="alert" className="mt-2 space-y-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p className="font-semibold">{question}</p>
      <p>Nothing was saved or sent. Confirm, or choose a batch of the enquiry&apos;s own course.</p>
      <button type="submit" name="confirmCourseChange" value="1" className={BUTTON_STYLES.secondary}>
        Yes, {enrolling ? "enrol in" : "choose"} the {batch?.courseName ?? "other course's"} batch
      </button>
    </div>
  );
}

/** A datetime-local value (Hyderabad time) as people read it: "2026-11-28T10:00" → "2026-11-28 10:00 IST". */
export function typedTime(value: string): string {
  return `${value.replace("T", " ")} IST`;
}
