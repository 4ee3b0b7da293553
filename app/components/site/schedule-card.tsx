import { Link } from "react-router";
import { DELIVERY_MODE_TONE, toneClasses } from "~/components/ui/badge-tones";
import { buttonClass } from "~/components/ui/button";
import { CalendarIcon, ClockIcon, MapPinIcon, UsersIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { capitalize, seatFillPercent } from "~/util/format";
import type { ScheduleSummary } from "~/web/public-views";
import { enquiryHref } from "./course-card";
import { batchFeeLine } from "~/util/fee";

export function isLimited(seats: number): boolean {
  return seats < SITE.limitedSeatsThreshold;
}

/** One batch: dates, time, mode, place, and the seat bar (filled by seats taken; red under 10 left, spec §4). */
export function ScheduleCard({ batch, headingLevel = 3 }: { batch: ScheduleSummary; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const full = batch.seats <= 0;
  const limited = isLimited(batch.seats);
  const fill = seatFillPercent(batch.seats, batch.totalSeats);
  return (
    <article
      className={`flex w-full flex-col rounded-2xl border bg-white p-5 shadow-sm ${limited ? "border-red-300" : "border-slate-200"}`}
      data-testid="batch"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${toneClasses(DELIVERY_MODE_TONE, batch.mode)}`}>{capitalize(batch.mode)}</span>
        {limited ? <span className="rounded-full bg-red-700 px-2.5 py-0.5 text-xs font-bold text-white">{full ? "Full" : "Limited Seats!"}</span> : null}
      </div>
      <Heading className="mt-3 text-lg font-bold text-slate-900">{batch.courseName}</Heading>
      <dl className="mt-3 space-y-2 text-sm text-slate-700">
        {/* A <div> in a <dl> holds only <dt> and <dd>: the icon sits inside the <dd>, which lays it out. */}
        <div>
          <dt className="sr-only">Dates</dt>
          <dd className="flex gap-2">
            <CalendarIcon className="mt-0.5 shrink-0 text-brand-700" />
            <span>
              {batch.startLabel} - {batch.endLabel}
            </span>
          </dd>
        </div>
        <div>
          <dt className="sr-only">Time and days</dt>
          <dd className="flex gap-2">
            <ClockIcon className="mt-0.5 shrink-0 text-brand-700" />
            <span>
              {batch.time} · {batch.days}
            </span>
          </dd>
        </div>
        <div>
          <dt className="sr-only">Fee</dt>
          <dd className="font-semibold text-slate-900" data-testid="batch-fee">
            {batchFeeLine(batch)}
          </dd>
        </div>
        <div>
          <dt className="sr-only">Location</dt>
          <dd className="flex gap-2">
            <MapPinIcon className="mt-0.5 shrink-0 text-brand-700" />
            <span>{batch.location}</span>
          </dd>
        </div>
      </dl>
      <div className="mt-4">
        <p className={`flex items-center gap-1.5 text-sm font-semibold ${limited ? "text-red-700" : "text-slate-800"}`}>
          <UsersIcon className="shrink-0" />
          {batch.seats} of {batch.totalSeats} seats left
        </p>
        <div
          className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-200"
          role="meter"
          aria-label={`Seats filled for ${batch.courseName}`}
          aria-valuemin={0}
          aria-valuemax={batch.totalSeats}
          aria-valuenow={Math.max(0, batch.totalSeats - batch.seats)}
          aria-valuetext={`${fill}% filled`}
        >
          <div className={`seat-bar h-full rounded-full ${limited ? "bg-red-600" : "bg-brand-600"}`} style={{ width: `${fill}%` }} />
        </div>
      </div>
      <div className="mt-auto pt-5">
        {/* A full batch takes no more enrolments (its seats are taken by enrolled enquiries): its form joins the waitlist. */}
        {full ? (
          <>
            <p className="rounded-lg bg-slate-100 px-4 py-2.5 text-center text-sm font-semibold text-slate-700">This batch is full</p>
            <Link
              to={`${enquiryHref(batch.courseName, { date: batch.startDate, mode: batch.mode })}&waitlist=1`}
              className={buttonClass("outline", "mt-3 w-full")}
              aria-label={`Join waitlist: ${batch.courseName}, starting ${batch.startLabel}`}
            >
              Join waitlist
            </Link>
          </>
        ) : (
          <Link
            to={enquiryHref(batch.courseName, { date: batch.startDate, mode: batch.mode })}
            className={buttonClass("accent", "w-full")}
            aria-label={`Enroll now: ${batch.courseName}, starting ${batch.startLabel}`}
          >
            Enroll Now
          </Link>
        )}
        <div className="mt-3 flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-sm font-semibold text-brand-700">
          {/* A plain link: the file is a download, not a page the router could show. */}
          <a
            href={`/schedules/${encodeURIComponent(batch.id)}.ics`}
            download
            className="flex items-center gap-1.5 underline-offset-2 hover:underline"
            aria-label={`Add to calendar: ${batch.courseName}, starting ${batch.startLabel}`}
          >
            <CalendarIcon className="shrink-0" />
            Add to calendar
          </a>
          {/* Google's event form, for Android phones where an .ics download goes nowhere useful. */}
          <a
            href={batch.googleCalendarUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="underline-offset-2 hover:underline"
            aria-label={`Add to Google Calendar: ${batch.courseName}, starting ${batch.startLabel}`}
          >
            Add to Google Calendar
          </a>
        </div>
      </div>
    </article>
  );
}
