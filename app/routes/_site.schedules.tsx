import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/notice";
import { Faq, SCHEDULE_FAQ } from "~/components/site/faq";
import { FilterLinks, MODE_FILTERS } from "~/components/site/filter-links";
import { PageHero } from "~/components/site/page-hero";
import { ScheduleCard } from "~/components/site/schedule-card";
import { SectionHeading } from "~/components/site/section-heading";
import { TryAgain } from "~/components/site/try-again";
import { scheduleSummary, unavailable } from "~/web/public-data.server";
import { passLoaderHeaders } from "~/web/action-headers";
import { breadcrumbLd, seoMeta } from "~/util/seo";
import { listUpcomingSchedules } from "~/models/schedule.server";
import { publicOrigin } from "~/util/origin.server";
import type { Route } from "./+types/_site.schedules";

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string) {
  return seoMeta({
    title: "Upcoming Batches and Schedules",
    description: "Start dates, timings and seats left for our online, offline and hybrid SOC Analyst and cybersecurity batches in Hyderabad.",
    path: "/schedules",
    origin,
    jsonLd: [breadcrumbLd(origin, [{ name: "Schedules", path: "/schedules" }])],
  });
}

export const headers = passLoaderHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const wanted = new URL(request.url).searchParams.get("mode");
  // online and offline also list hybrid batches (DESIGN.md §4.4); hybrid lists only those; anything else means all.
  const mode = wanted === "online" || wanted === "offline" || wanted === "hybrid" ? wanted : "";
  try {
    const batches = await listUpcomingSchedules(mode ? { mode } : {});
    return { seo: pageSeo(publicOrigin()), failed: false, mode, batches: batches.map(scheduleSummary) };
  } catch (error) {
    console.error("Failed to load course schedules", error);
    return unavailable({ seo: pageSeo(publicOrigin()), failed: true, mode, batches: [] });
  }
}

export default function Schedules({ loaderData }: Route.ComponentProps) {
  const { failed, mode, batches } = loaderData;
  return (
    <main id="main">
      <PageHero
        title="Upcoming Batches"
        crumbs={[{ name: "Schedules" }]}
        intro="Weekday, weekend and evening batches, online or at our HITEC City campus. Seats are limited in every batch."
      />
      <section aria-labelledby="batches-title" className="py-14 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <SectionHeading id="batches-title" eyebrow="Batch Calendar" title="Choose your batch" />
          <div className="mt-8">
            <FilterLinks label="Filter batches by mode" options={MODE_FILTERS} current={mode} hrefFor={(v) => (v ? `/schedules?mode=${v}` : "/schedules")} />
            <p className="mt-4 text-sm text-slate-700">
              <a href="/schedules.ics" download className="font-semibold text-brand-700 underline underline-offset-2">
                All upcoming batches as a calendar file
              </a>{" "}
              (.ics, for Google Calendar, Outlook or Apple Calendar)
            </p>
          </div>
          <div className="mt-10">
            {failed ? (
              <Notice tone="error" action={<TryAgain action="/schedules" params={{ mode }} />}>
                Failed to load course schedules. Please try again later.
              </Notice>
            ) : batches.length ? (
              <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {batches.map((b) => (
                  <ScheduleCard key={b.id} batch={b} />
                ))}
              </div>
            ) : (
              <Notice
                action={
                  <Link to="/schedules" preventScrollReset className={buttonClass("primary")}>
                    Show All Batches
                  </Link>
                }
              >
                No upcoming batches found for the selected mode.
              </Notice>
            )}
          </div>
        </div>
      </section>
      <section aria-labelledby="faq-title" className="bg-slate-50 py-14 sm:py-20">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <SectionHeading id="faq-title" eyebrow="FAQ" title="Frequently asked questions" />
          <Faq items={SCHEDULE_FAQ} />
          <div className="mt-10 rounded-2xl border border-slate-200 bg-white p-6 text-center">
            <p className="font-semibold text-slate-900">Still have questions about a batch?</p>
            <Link to="/contact" className={buttonClass("primary", "mt-4")}>
              Contact Us
            </Link>
          </div>
        </div>
      </section>
    </main>
  );
}
