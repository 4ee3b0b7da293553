import { useActionData, type ShouldRevalidateFunctionArgs } from "react-router";
import { EnquiryAside } from "~/components/site/form-asides";
import { loadEnquiryForm, SiteEnquiryForm } from "~/components/site/lazy-enquiry-form";
import { PageHero } from "~/components/site/page-hero";
import { MyEnquiryLookup } from "~/components/site/my-enquiry-lookup";
import { CalendarIcon } from "~/components/ui/icons";
import { FALLBACK_COURSE_TITLES } from "~/config/site";
import { formatDate } from "~/util/format";
import { breadcrumbLd, seoMeta } from "~/util/seo";
import { resultFor } from "~/web/site-forms";
import { enquiryAction } from "~/web/site-forms.server";
import { listCourseTitles } from "~/models/course.server";
import { findScheduleByCourseAndStart } from "~/models/schedule.server";
import { FEE_ON_REQUEST } from "~/schemas/fee-text";
import { batchFeeLine, courseFeeLine } from "~/util/fee";
import { ENQUIRY_FAILED } from "~/schemas/enquiry";
import { DELIVERY_MODES } from "~/schemas/public-values";
import { publicOrigin } from "~/util/origin.server";
import type { Route } from "./+types/_site.enquiry";
import { passActionHeaders } from "~/web/action-headers";
import { fullBatchFor } from "~/services/waitlist.server";

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string, waitlist: boolean) {
  return seoMeta({
    // A full batch's Join waitlist opens this page as the waitlist's: its tab says so too.
    title: waitlist ? "Join the waitlist" : "Course Enquiry and Registration",
    description: "Register for a SOC Analyst or cybersecurity course in Hyderabad or online. A counsellor calls you back within 24 hours.",
    path: "/enquiry",
    origin,
    jsonLd: [breadcrumbLd(origin, [{ name: "Enquiry", path: "/enquiry" }])],
  });
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const [titles] = await Promise.all([
    listCourseTitles()
      .then((rows) => rows.map((r) => ({ title: r.title, slug: r.slug, fee: courseFeeLine(r) })))
      .catch((error) => {
        // The dropdown falls back to the five fixed titles (spec §8).
        console.error("Failed to load the course list for the enquiry form", error);
        return null;
      }),
    loadEnquiryForm(),
  ]);
  const courses = titles?.length ? titles : FALLBACK_COURSE_TITLES.map((title) => ({ title, slug: "", fee: FEE_ON_REQUEST }));
  // ?course= preselects a course by title (or slug); ?date= and ?mode= come from a batch's Enroll Now.
  const wanted = (params.get("course") ?? "").trim().toLowerCase();
  const match = wanted ? courses.find((c) => c.title.toLowerCase() === wanted || c.slug === wanted) : undefined;
  const date = params.get("date") ?? "";
  const batchDate = ISO_DATE.test(date) && !Number.isNaN(Date.parse(date)) ? date : null;
  const defaultMode = DELIVERY_MODES.find((mode) => mode === params.get("mode"));
  // ?waitlist=1 comes from a full batch's Join waitlist: the enquiry will join that batch's waitlist (while it is full).
  const waitlist = params.get("waitlist") === "1" && batchDate && match ? await fullBatchFor(match.title, batchDate, defaultMode ?? "online") : null;
  // The fee of each course for the form (in its options, and beside the choice); a batch's own price for its course.
  const fees = Object.fromEntries(courses.map((c) => [c.title, c.fee]));
  const batch = match && batchDate ? await findScheduleByCourseAndStart(match.title, batchDate, defaultMode ?? "online").catch(() => null) : null;
  if (batch && match) fees[match.title] = batchFeeLine(batch);
  return {
    courses: courses.map((c) => c.title),
    fees,
    defaultCourse: match?.title,
    defaultMode,
    batchDate,
    waitlist,
    seo: pageSeo(publicOrigin(), Boolean(waitlist)),
  };
}

export const headers = passActionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  return enquiryAction(request, context, { channel: "enquiry-page", failureMessage: ENQUIRY_FAILED });
}

export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Already in the browser with the form's code, so this import works even when the network does not.
  const { submitOrExplain } = await import("~/web/site-form-fallback");
  return submitOrExplain(request, serverAction, { enquiryMessage: true });
}

/** A form post changes nothing this page shows: skip reloading its data (and a failed reload cannot replace the page). */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

export default function Enquiry({ loaderData }: Route.ComponentProps) {
  const { courses, fees, defaultCourse, defaultMode, batchDate, waitlist } = loaderData;
  const actionData = useActionData<typeof action>();
  const batchNote = waitlist
    ? `Please put me on the waitlist for the batch starting ${formatDate(waitlist.startDate)}.`
    : batchDate
      ? `I would like to join the batch starting ${formatDate(batchDate)}.`
      : undefined;
  return (
    <main id="main">
      {waitlist ? (
        <PageHero
          title="Join the waitlist"
          crumbs={[{ name: "Schedules", to: "/schedules" }, { name: "Waitlist" }]}
          intro={`${waitlist.courseName}, starting ${formatDate(waitlist.startDate)}, is full. Join its waitlist: when a seat frees, we e-mail you a link that holds it for you.`}
        />
      ) : (
        <PageHero
          title="Course Registration"
          crumbs={[{ name: "Enquiry" }]}
          intro="Reserve your seat in the next batch. Fill in the form and a counsellor will call you within 24 hours."
        />
      )}
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-3">
        <aside className="lg:col-span-1" aria-labelledby="enquiry-help-title">
          <h2 id="enquiry-help-title" className="text-2xl font-bold text-slate-900">
            What happens next?
          </h2>
          <EnquiryAside />
          {waitlist ? (
            <p className="mt-6 flex items-center gap-2 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950" data-testid="waitlist-note">
              <CalendarIcon className="shrink-0 text-lg" />
              <span>
                {`You are joining the waitlist for ${waitlist.courseName}, starting ${formatDate(waitlist.startDate)}: this batch is full. You keep your place in the order you join, and when a seat frees we e-mail you a link that holds it for you.`}
              </span>
            </p>
          ) : batchDate ? (
            <p className="mt-6 flex items-center gap-2 rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm text-brand-900">
              <CalendarIcon className="shrink-0 text-lg" />
              Selected batch starts {formatDate(batchDate)}.
            </p>
          ) : null}
        </aside>
        <section
          aria-label={waitlist ? "Waitlist form" : "Registration form"}
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-2"
        >
          <SiteEnquiryForm
            variant="page"
            actionResult={resultFor(actionData, "enquiry")}
            courses={courses}
            fees={fees}
            defaultCourse={defaultCourse}
            defaultMode={defaultMode}
            defaultMessage={batchNote}
            batchDate={batchDate}
            resetHref="/enquiry"
            submitLabel={waitlist ? "Join the waitlist" : undefined}
          />
        </section>
      </div>
      <div className="mx-auto max-w-7xl px-4 pb-14 sm:px-6">
        <MyEnquiryLookup className="max-w-2xl" />
      </div>
    </main>
  );
}
