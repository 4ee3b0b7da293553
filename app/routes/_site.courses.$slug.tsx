import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { ClockIcon } from "~/components/ui/icons";
import { CategoryBadge, CourseImage, enquiryHref } from "~/components/site/course-card";
import type { CourseSummary, ScheduleSummary } from "~/web/public-views";
import { PageHero } from "~/components/site/page-hero";
import { PreviewBanner, type Preview } from "~/components/site/preview-banner";
import type { NoticeHandle } from "./_site";
import { formatDateTime } from "~/util/dates";
import { ScheduleCard } from "~/components/site/schedule-card";
import { courseLd } from "~/util/course-ld";
import { capitalize } from "~/util/format";
import { courseFeeLine } from "~/util/fee";
import { courseSummary, scheduleSummary, syllabusView } from "~/web/public-data.server";
import { breadcrumbLd, seoMeta } from "~/util/seo";
import { coursePage } from "~/services/courses.server";
import { publicOrigin } from "~/util/origin.server";
import { passLoaderHeaders } from "~/web/action-headers";
import { readUserSession } from "~/web/session.server";
import type { Route } from "./+types/_site.courses.$slug";

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string, course: CourseSummary, batches: ScheduleSummary[]) {
  const path = `/courses/${course.slug}`;
  return seoMeta({
    title: course.title,
    description: course.description.length > 160 ? `${course.description.slice(0, 157)}...` : course.description,
    path,
    origin,
    image: course.image,
    jsonLd: [
      courseLd(
        origin,
        course,
        batches.map((b) => ({ ...b, price: b.fee })),
      ),
      breadcrumbLd(origin, [
        { name: "Courses", path: "/courses" },
        { name: course.title, path },
      ]),
    ],
  });
}

export const headers = passLoaderHeaders;

/**
 * Visitors see published courses only (a draft or scheduled one is Not Found for them). Signed-in staff may
 * preview any course here, with a banner; that page is theirs alone and never stored by a cache.
 */
/** A staff preview's banner, above the site header's bar (see the layout's NoticeHandle). */
export const handle: NoticeHandle = {
  notice: (data) => {
    const preview = (data as { preview?: Preview | null } | undefined)?.preview;
    return preview ? <PreviewBanner {...preview} /> : null;
  },
};

export async function loader({ params, request }: Route.LoaderArgs) {
  const found = await coursePage(params.slug, async () => (await readUserSession(request)) !== null);
  if (!found) throw data("Not Found", { status: 404 });
  const { course, preview } = found;
  const summary = courseSummary(course);
  const upcoming = found.batches.map(scheduleSummary);
  const page = {
    course: { ...summary, modes: course.modes },
    batches: upcoming,
    syllabus: syllabusView(course),
    seo: pageSeo(publicOrigin(), summary, upcoming),
    preview: preview ? ({ state: course.state, publishes: course.publishAt ? formatDateTime(course.publishAt) : null } satisfies Preview) : null,
  };
  // A preview is one staff member's page: never kept by a cache.
  return preview ? data(page, { headers: { "Cache-Control": "private, no-store" } }) : page;
}

export default function CoursePage({ loaderData }: Route.ComponentProps) {
  // A preview's banner is shown by the site header (see PreviewBanner).
  const { course, batches, syllabus } = loaderData;
  return (
    <main id="main">
      <PageHero title={course.title} crumbs={[{ name: "Courses", to: "/courses" }, { name: course.title }]} intro={course.description}>
        <div className="mt-6 flex flex-wrap items-center gap-3 text-sm text-blue-100">
          <CategoryBadge category={course.category} />
          {course.duration ? (
            <span className="inline-flex items-center gap-1">
              <ClockIcon /> {course.duration}
            </span>
          ) : null}
          {course.modes.length ? <span>Modes: {course.modes.map(capitalize).join(", ")}</span> : null}
        </div>
        <p className="mt-4 text-lg font-bold text-white" data-testid="course-fee">
          {courseFeeLine(course)}
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={enquiryHref(course.title)} className={buttonClass("accent", "px-6 py-3 text-base")}>
            Enroll Now
          </Link>
          {syllabus.file ? (
            <a href={syllabus.file} download={syllabus.fileName} className={buttonClass("ghostLight", "px-6 py-3 text-base")}>
              Download Syllabus
            </a>
          ) : null}
        </div>
      </PageHero>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-3">
        <div className="space-y-10 lg:col-span-2">
          {course.highlights.length ? (
            <section aria-labelledby="highlights-title">
              <h2 id="highlights-title" className="text-2xl font-bold text-slate-900">
                What you will get
              </h2>
              <ul className="check-list mt-4 grid gap-3 sm:grid-cols-2">
                {course.highlights.map((h) => (
                  <li key={h} className="text-slate-800">
                    {h}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section aria-labelledby="syllabus-heading">
            <h2 id="syllabus-heading" className="text-2xl font-bold text-slate-900">
              Syllabus
            </h2>
            <div className="mt-4 rounded-2xl border border-slate-200 p-5 sm:p-6">
              {syllabus.html ? (
                <div className="syllabus-content" dangerouslySetInnerHTML={{ __html: syllabus.html }} />
              ) : (
                <p className="text-slate-700">Detailed syllabus will be available soon.</p>
              )}
            </div>
          </section>
        </div>
        <aside aria-labelledby="batches-title" className="space-y-5">
          <div className="overflow-hidden rounded-2xl border border-slate-200">
            <CourseImage course={course} eager />
          </div>
          <h2 id="batches-title" className="text-2xl font-bold text-slate-900">
            Upcoming batches
          </h2>
          {batches.length ? (
            batches.map((b) => <ScheduleCard key={b.id} batch={b} />)
          ) : (
            <div className="rounded-xl border border-slate-200 bg-slate-50 p-5 text-slate-700">
              <p>New batches are being planned. Enroll now and we will tell you first.</p>
              <Link to={enquiryHref(course.title)} className={buttonClass("accent", "mt-3")}>
                Enroll Now
              </Link>
            </div>
          )}
        </aside>
      </div>
    </main>
  );
}
