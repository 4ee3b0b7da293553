import { COURSE_CATEGORIES, COURSE_CATEGORY_LABELS } from "~/schemas/public-values";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/notice";
import { CourseCard, FeaturedCourse } from "~/components/site/course-card";
import { FilterLinks } from "~/components/site/filter-links";
import { PageHero } from "~/components/site/page-hero";
import { SectionHeading } from "~/components/site/section-heading";
import { SyllabusDialog } from "~/components/site/syllabus-dialog";
import { TryAgain } from "~/components/site/try-again";
import { breadcrumbLd, seoMeta } from "~/util/seo";
import { courseSummary, syllabusView, unavailable } from "~/web/public-data.server";
import { passLoaderHeaders } from "~/web/action-headers";
import { getCourseBySlug, listAllCourses } from "~/models/course.server";
import { publicOrigin } from "~/util/origin.server";
import type { Route } from "./+types/_site.courses._index";

const CATEGORY_FILTERS = [{ value: "", label: "All Courses" }, ...COURSE_CATEGORIES.map((value) => ({ value, label: COURSE_CATEGORY_LABELS[value] }))];

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string) {
  return seoMeta({
    title: "Cybersecurity Courses",
    description:
      "SOC Analyst, cybersecurity fundamentals, penetration testing, network and cloud security courses in Hyderabad and online, with labs, internship and placement support.",
    path: "/courses",
    origin,
    jsonLd: [breadcrumbLd(origin, [{ name: "Courses", path: "/courses" }])],
  });
}

export const headers = passLoaderHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const wanted = params.get("category") ?? "";
  const category = CATEGORY_FILTERS.some((f) => f.value === wanted) ? wanted : "";
  const syllabusSlug = params.get("syllabus");
  try {
    const [courses, featured, syllabusCourse] = await Promise.all([
      listAllCourses(category ? { category } : {}),
      listAllCourses({ featured: true }),
      syllabusSlug ? getCourseBySlug(syllabusSlug) : null,
    ]);
    return {
      seo: pageSeo(publicOrigin()),
      failed: false,
      category,
      courses: courses.map(courseSummary),
      featured: featured.map(courseSummary),
      syllabus: syllabusCourse ? syllabusView(syllabusCourse) : null,
    };
  } catch (error) {
    console.error("Failed to load courses", error);
    return unavailable({ seo: pageSeo(publicOrigin()), failed: true, category, courses: [], featured: [], syllabus: null });
  }
}

function listHref(category: string, syllabus?: string) {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (syllabus) params.set("syllabus", syllabus);
  const qs = params.toString();
  return qs ? `/courses?${qs}` : "/courses";
}

export default function Courses({ loaderData }: Route.ComponentProps) {
  const { failed, category, courses, featured, syllabus } = loaderData;
  return (
    <main id="main">
      <PageHero
        title="Our Cybersecurity Courses"
        crumbs={[{ name: "Courses" }]}
        intro="Lab-first programmes for freshers, career switchers and working professionals, online or at our Hyderabad campus."
      />
      {failed ? (
        <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
          <Notice tone="error" action={<TryAgain action="/courses" params={{ category }} />}>
            Failed to load courses. Please try again later.
          </Notice>
        </div>
      ) : (
        <>
          {featured.length ? (
            <section aria-labelledby="featured-title" className="bg-slate-50 py-14 sm:py-20">
              <div className="mx-auto max-w-7xl space-y-8 px-4 sm:px-6">
                <SectionHeading id="featured-title" eyebrow="Most Popular" title="Featured Programs" />
                {featured.map((c) => (
                  <FeaturedCourse key={c.id} course={c} syllabusHref={listHref(category, c.slug)} />
                ))}
              </div>
            </section>
          ) : null}
          <section aria-labelledby="all-courses-title" className="py-14 sm:py-20">
            <div className="mx-auto max-w-7xl px-4 sm:px-6">
              <SectionHeading id="all-courses-title" eyebrow="Browse" title="All Courses" />
              <div className="mt-8">
                <FilterLinks label="Filter courses by level" options={CATEGORY_FILTERS} current={category} hrefFor={(v) => listHref(v)} />
              </div>
              <div className="mt-10">
                {courses.length ? (
                  <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="course-grid">
                    {courses.map((c) => (
                      <CourseCard key={c.id} course={c} syllabusHref={listHref(category, c.slug)} />
                    ))}
                  </div>
                ) : (
                  <Notice
                    action={
                      <Link to="/courses" preventScrollReset className={buttonClass("primary")}>
                        Show All Courses
                      </Link>
                    }
                  >
                    No courses found for the selected level.
                  </Notice>
                )}
              </div>
            </div>
          </section>
        </>
      )}
      <section aria-labelledby="courses-cta-title" className="hero-band py-14 text-center text-white">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="courses-cta-title" className="text-2xl font-extrabold sm:text-3xl">
            Not sure which course is right for you?
          </h2>
          <p className="mt-3 text-blue-100">Talk to a counsellor, or see when the next batches start.</p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/enquiry" className={buttonClass("accent")}>
              Enroll Now
            </Link>
            <Link to="/schedules" className={buttonClass("ghostLight")}>
              View Schedules
            </Link>
          </div>
        </div>
      </section>
      {syllabus ? <SyllabusDialog syllabus={syllabus} closeHref={listHref(category)} /> : null}
    </main>
  );
}
