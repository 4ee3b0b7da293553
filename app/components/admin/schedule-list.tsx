import type { Schedule } from "~/models/schedule.server";
import { formatDate } from "~/util/dates";
import { DELIVERY_MODE_TONE } from "~/components/ui/badge-tones";
import type { DeliveryMode } from "~/schemas/values";
import { StatusBadge } from "./status-badge";
import { DataList } from "./data-list";
import { DeleteButton } from "./confirm-delete";
import { EditLink } from "./edit-link";
import { PublicationBadge } from "./publication-fields";

const MODE_LABEL: Record<string, string> = { online: "Online", offline: "Offline", hybrid: "Hybrid" };

export function ModeBadge({ mode }: { mode: string }) {
  return <StatusBadge tone={DELIVERY_MODE_TONE[mode as DeliveryMode] ?? "gray"}>{MODE_LABEL[mode] ?? mode}</StatusBadge>;
}

/** Manage Schedules (spec §2): Course, Dates, Schedule, Mode, Availability ("24 of 30 taken", counted), Actions; in date order. */
export function ScheduleList({ schedules, search }: { schedules: (Schedule & { waiting: number })[]; search: string }) {
  return (
    <DataList
      items={schedules}
      rowKey={(s) => s.id}
      caption="Schedules"
      empty="No schedules found"
      columns={[
        { header: "Course", hideLabelOnCards: true, cell: (s) => <span className="font-semibold text-slate-900">{s.courseName}</span> },
        { header: "Dates", className: "md:whitespace-nowrap", cell: (s) => `${formatDate(s.startDate)} - ${formatDate(s.endDate)}` },
        {
          header: "Schedule",
          cell: (s) => (
            <>
              <div>{s.time}</div>
              <div className="text-slate-600">{s.days}</div>
            </>
          ),
        },
        { header: "Mode", cell: (s) => <ModeBadge mode={s.mode} /> },
        {
          header: "Availability",
          cell: (s) => (
            <>
              {/* Fewer than 10 seats left is the spec's "limited seats" threshold (§9). */}
              <span className={s.seats < 10 ? "font-semibold text-red-700" : undefined}>{`${s.seatsTaken} of ${s.totalSeats} taken`}</span>
              <div className="text-xs text-slate-600 md:whitespace-nowrap">
                {`${s.seats} left`}
                {s.waiting ? ` · ${s.waiting} on the waitlist` : ""}
              </div>
            </>
          ),
        },
        { header: "Publication", cell: (s) => <PublicationBadge state={s.state} publishAt={s.publishAt} /> },
        {
          header: "Actions",
          className: "md:whitespace-nowrap md:text-right",
          cell: (s) => {
            const name = `${s.courseName} batch of ${formatDate(s.startDate)}`;
            return (
              <div className="flex flex-wrap gap-1 md:flex-nowrap md:justify-end">
                <EditLink to={`/admin/schedules/${s.id}/edit${search}`} itemName={name} />
                <DeleteButton to={`/admin/schedules/${s.id}/delete${search}`} itemName={name} confirmMessage="Are you sure you want to delete this schedule?" />
              </div>
            );
          },
        },
      ]}
    />
  );
}
