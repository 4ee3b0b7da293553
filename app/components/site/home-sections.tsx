import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/notice";
import type { CourseSummary, ScheduleSummary } from "~/web/public-views";
import { CategoryBadge, FeaturedCourse } from "./course-card";
import { courseFeeLine } from "~/util/fee";
import { FilterLinks, MODE_FILTERS } from "./filter-links";
import { ScheduleCard } from "./schedule-card";
import { SectionHeading } from "./section-heading";

/**
 * The first featured course (at most 4 highlights, spec §9) once, then every other course as one short linked row
 * with its fee: the full cards are on /courses (issue 27: a home page a phone can scroll).
 */
export function HomeCourses({ courses }: { courses: CourseSummary[] }) {
  const featured = courses.find((c) => c.featured);
  const others = courses.filter((c) => c !== featured);
  return (
    <section id="courses-section" aria-labelledby="courses-title" className="py-8 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id="courses-title" eyebrow="Our Courses" title="Courses that make you job-ready">
          From your first networking class to advanced penetration testing, every course is lab-first and mentor-led.
        </SectionHeading>
        {featured ? (
          <div className="mt-8 sm:mt-12">
            <FeaturedCourse course={featured} syllabusHref={`/courses?syllabus=${featured.slug}`} maxHighlights={4} imageFromTablet />
          </div>
        ) : null}
        {others.length ? (
          <ul className="mt-8 grid gap-3 sm:grid-cols-2" data-testid="course-list">
            {others.map((c) => (
              <li key={c.id} className="flex flex-col gap-1 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm">
                <Link to={`/courses/${c.slug}`} className="font-bold text-slate-900 hover:text-brand-700 hover:underline">
                  {c.title}
                </Link>
                <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
                  <CategoryBadge category={c.category} />
                  {c.duration ? <span>{c.duration}</span> : null}
                  <span className="font-semibold text-slate-900">{courseFeeLine(c)}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-8 text-center sm:mt-10">
          <Link to="/courses" className={buttonClass("outline")}>
            View All Courses
          </Link>
        </div>
      </div>
    </section>
  );
}

/**
 * The next three upcoming batches with the same mode filter as /schedules (kept on the home page via ?mode= and the
 * anchor), and the way to all of them.
 */
const HOME_BATCHES = 3;

export function HomeSchedules({ schedules, mode }: { schedules: ScheduleSummary[] | null; mode: string }) {
  return (
    <section id="schedules-section" aria-labelledby="schedules-title" className="overflow-x-clip bg-slate-50 py-8 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id="schedules-title" eyebrow="Upcoming Batches" title="Pick a batch that fits your day">
          Weekday, weekend and evening batches, online or at our HITEC City campus.
        </SectionHeading>
        {schedules ? (
          <>
            <div className="mt-6 sm:mt-8">
              <FilterLinks
                label="Filter batches by mode"
                options={MODE_FILTERS}
                current={mode}
                hrefFor={(v) => (v ? `/?mode=${v}#schedules-section` : "/#schedules-section")}
              />
            </div>
            <div className="mt-6 sm:mt-8">
              {schedules.length ? (
                // On a phone the three sit side by side in a row that scrolls sideways (focusable, so keys scroll it too).
                <ul
                  className="relative -mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:gap-6 sm:overflow-visible sm:px-0 lg:grid-cols-3"
                  tabIndex={0}
                  aria-label="The next three batches"
                >
                  {schedules.slice(0, HOME_BATCHES).map((s) => (
                    <li key={s.id} className="flex w-[85%] shrink-0 snap-start sm:w-auto">
                      <ScheduleCard batch={s} />
                    </li>
                  ))}
                </ul>
              ) : (
                <Notice
                  action={
                    <Link to="/#schedules-section" preventScrollReset className={buttonClass("primary")}>
                      Show All Batches
                    </Link>
                  }
                >
                  No batches found for the selected filter.
                </Notice>
              )}
            </div>
          </>
        ) : null}
        <div className="mt-8 text-center sm:mt-10">
          <Link to="/schedules" className={buttonClass("outline")}>
            View Full Schedule
          </Link>
        </div>
      </div>
    </section>
  );
}
