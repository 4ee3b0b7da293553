import { Link } from "react-router";
import type { Route } from "./+types/admin.dashboard";
import { feeFigures } from "~/services/fee-lists.server";
import { FeeFiguresPanel } from "~/components/admin/fee-list";
import { OutboxBanner } from "~/components/admin/outbox-banner";
import { PageHeader } from "~/components/admin/page-header";
import { WarningBanner } from "~/components/admin/error-banner";
import { env } from "~/env.server";
import { StatusBadge } from "~/components/admin/status-badge";
import { InboxStatusBadge } from "~/components/admin/inbox-status";
import { formatDate } from "~/util/format";
import { requireStaff } from "~/web/actor.server";
import { formatDateTime } from "~/util/dates";
import { pipelineFigures } from "~/services/pipeline-figures.server";
import { PipelinePanels } from "~/components/admin/pipeline-panels";
import { countCourses } from "~/models/course.server";
import { firstEnquiries } from "~/models/enquiry.server";
import { newEnquiryCount } from "~/services/staff-counts.server";
import { countReviews, listReviews } from "~/models/review.server";
import { countActiveSchedules } from "~/models/schedule.server";
import { outboxHealth } from "~/services/outbox.server";
import { backupHealth } from "~/services/backups.server";
import { BackupBanner } from "~/components/admin/backup-banner";
import { Typed } from "~/components/ui/typed";
import { figureWarnings } from "~/services/figure-checks.server";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Admin" }];

// Real figures, not the spec's fixed placeholders (DESIGN.md §4.1), and the enrolment pipeline's.
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireStaff({ request, context });
  const [courses, activeSchedules, reviews, newEnquiries, recentEnquiries, recentReviews, pipeline, outbox, backups, figures] = await Promise.all([
    countCourses(),
    countActiveSchedules(),
    countReviews(),
    newEnquiryCount(context),
    firstEnquiries({ limit: 5 }),
    listReviews({ limit: 5 }),
    pipelineFigures(actor, new Date(), context),
    // The warning is a side note: if it cannot be read, the dashboard still shows.
    outboxHealth().catch((error: unknown) => {
      console.error("[admin] reading the outbox for the dashboard failed:", error);
      return null;
    }),
    // Whether the last good backup is too old (app/services/backups.server.ts); a side note like the outbox's.
    backupHealth().then(
      (h) => ({ state: h.state, warning: h.warning }),
      (error: unknown) => {
        console.error("[admin] reading the backup records for the dashboard failed:", error);
        return null;
      },
    ),
    // Public figures the data contradicts (a side note too).
    figureWarnings().catch((error: unknown) => {
      console.error("[admin] checking the public figures for the dashboard failed:", error);
      return [] as string[];
    }),
  ]);
  return {
    pipeline: {
      ...pipeline,
      myFollowUps: { ...pipeline.myFollowUps, next: pipeline.myFollowUps.next.map((f) => ({ ...f, at: formatDateTime(f.followUpAt) })) },
    },
    // Unset, every canonical link and e-mail link says localhost: worth a word to whoever runs the site.
    publicUrlMissing: env().PUBLIC_URL_DEFAULTED ? env().PUBLIC_URL : null,
    outbox,
    backups,
    isAdmin: actor.user.role === "admin",
    // Fees: collected this month, outstanding, overdue (app/services/fee-lists.server.ts).
    fees: await feeFigures(),
    figureWarnings: figures,
    counts: { courses, activeSchedules, reviews, newEnquiries },
    recentEnquiries: recentEnquiries.map((e) => ({
      id: e.id,
      fullName: e.fullName,
      preferredCourse: e.preferredCourse,
      status: e.status,
      createdAt: e.createdAt,
    })),
    recentReviews: recentReviews.data.map((r) => ({ id: r.id, name: r.name, course: r.course, rating: r.rating, approved: r.approved })),
  };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { counts, recentEnquiries, recentReviews, publicUrlMissing, pipeline, outbox, backups, isAdmin, figureWarnings, fees } = loaderData;
  const cards = [
    { label: "Total Courses", value: counts.courses, to: "/admin/courses" },
    { label: "Active Schedules", value: counts.activeSchedules, to: "/admin/schedules" },
    { label: "Total Reviews", value: counts.reviews, to: "/admin/reviews" },
    { label: "New Enquiries", value: counts.newEnquiries, to: "/admin/enquiries?status=new" },
    { label: "New for more than 24 hours", value: pipeline.unansweredOver24h, to: "/admin/enquiries?status=new" },
  ];
  return (
    <>
      <PageHeader title="Dashboard" description="An overview of courses, batches, reviews and enquiries." />
      {publicUrlMissing ? (
        <WarningBanner className="mb-4">
          PUBLIC_URL is not set: links in search results and e-mails will point to localhost ({publicUrlMissing}). Set PUBLIC_URL to the site&apos;s public
          address and restart.
        </WarningBanner>
      ) : null}
      <OutboxBanner health={outbox} isAdmin={isAdmin} />
      <BackupBanner health={backups} />
      {figureWarnings.length ? (
        <WarningBanner className="mb-4">
          <span data-testid="figure-warnings">
            Public figures claim more than the data shows: {figureWarnings.join(" ")}{" "}
            {isAdmin ? (
              <Link to="/admin/settings" className="font-semibold underline">
                Change them in Site Settings.
              </Link>
            ) : (
              "An admin can change them in Site Settings."
            )}
          </span>
        </WarningBanner>
      ) : null}
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        {cards.map((c) => (
          <li key={c.label}>
            <Link to={c.to} className="block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600">
              <span className="block text-sm font-semibold text-slate-600">{c.label}</span>
              <span className="mt-1 block text-3xl font-bold text-brand-900" data-testid={`count-${c.label}`}>
                {c.value}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <section aria-labelledby="fee-figures-title" className="mt-6">
        <h2 id="fee-figures-title" className="mb-2 text-lg font-bold text-brand-900">
          <Link to="/admin/fees" className="hover:underline">
            Fees
          </Link>
        </h2>
        <FeeFiguresPanel figures={fees} />
      </section>
      <PipelinePanels pipeline={pipeline} />
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Panel title="Recent Enquiries" more="/admin/enquiries" empty="No recent enquiries.">
          {recentEnquiries.map((e) => (
            <li key={e.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <Link to={`/admin/enquiries/${e.id}`} className="font-semibold wrap-anywhere text-brand-800 hover:underline">
                  <Typed>{e.fullName}</Typed>
                </Link>
                <p className="truncate text-sm text-slate-600">
                  <Typed>{e.preferredCourse}</Typed>
                </p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <InboxStatusBadge status={e.status} />
                <span className="text-xs text-slate-600">{formatDate(e.createdAt)}</span>
              </div>
            </li>
          ))}
        </Panel>
        <Panel title="Recent Reviews" more="/admin/reviews" empty="No recent reviews.">
          {recentReviews.map((r) => (
            <li key={r.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-semibold wrap-anywhere text-slate-900">
                  <Typed>{r.name}</Typed>
                </p>
                <p className="truncate text-sm text-slate-600">{r.course}</p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <span role="img" className="text-sm text-amber-700" aria-label={`${r.rating} out of 5 stars`}>
                  {"★".repeat(r.rating)}
                  <span className="text-slate-300">{"★".repeat(5 - r.rating)}</span>
                </span>
                <StatusBadge tone={r.approved ? "green" : "yellow"}>{r.approved ? "Approved" : "Pending"}</StatusBadge>
              </div>
            </li>
          ))}
        </Panel>
      </div>
    </>
  );
}

function Panel({ title, more, empty, children }: { title: string; more: string; empty: string; children: React.ReactNode[] }) {
  const headingId = `panel-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby={headingId}>
      <div className="flex items-center justify-between">
        <h2 id={headingId} className="text-lg font-bold text-brand-900">
          {title}
        </h2>
        <Link to={more} className="text-sm font-semibold text-brand-700 hover:underline">
          View all<span className="sr-only"> {title.toLowerCase()}</span>
        </Link>
      </div>
      {children.length ? <ul className="mt-2 divide-y divide-slate-100">{children}</ul> : <p className="mt-4 text-sm text-slate-600">{empty}</p>}
    </section>
  );
}
