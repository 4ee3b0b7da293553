import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/notice";
import type { CourseSummary, ScheduleSummary } from "~/web/public-views";
import { CourseCard, FeaturedCourse } from "./course-card";
import { FilterLinks, MODE_FILTERS } from "./filter-links";
import { ScheduleCard } from "./schedule-card";
import { SectionHeading } from "./section-heading";

/** The first featured course (at most 4 highlights) and every course (spec §2, §9). */
export function HomeCourses({ courses }: { courses: CourseSummary[] }) {
  const featured = courses.find((c) => c.featured);
  return (
    <section id="courses-section" aria-labelledby="courses-title" className="py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id="courses-title" eyebrow="Our Courses" title="Courses that make you job-ready">
          From your first networking class to advanced penetration testing, every course is lab-first and mentor-led.
        </SectionHeading>
        {featured ? (
          <div className="mt-12">
            <FeaturedCourse course={featured} syllabusHref={`/courses?syllabus=${featured.slug}`} maxHighlights={4} />
          </div>
        ) : null}
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="course-list">
          {courses.map((c) => (
            <CourseCard key={c.id} course={c} syllabusHref={`/courses?syllabus=${c.slug}`} />
          ))}
        </div>
        <div className="mt-10 text-center">
          <Link to="/courses" className={buttonClass("outline")}>
            View All Courses
          </Link>
        </div>
      </div>
    </section>
  );
}

/** Upcoming batches with the same mode filter as /schedules, kept on the home page via ?mode= and the anchor. */
export function HomeSchedules({ schedules, mode }: { schedules: ScheduleSummary[] | null; mode: string }) {
  return (
    <section id="schedules-section" aria-labelledby="schedules-title" className="bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id="schedules-title" eyebrow="Upcoming Batches" title="Pick a batch that fits your day">
          Weekday, weekend and evening batches, online or at our HITEC City campus.
        </SectionHeading>
        {schedules ? (
          <>
            <div className="mt-8">
              <FilterLinks
                label="Filter batches by mode"
                options={MODE_FILTERS}
                current={mode}
                hrefFor={(v) => (v ? `/?mode=${v}#schedules-section` : "/#schedules-section")}
              />
            </div>
            <div className="mt-8">
              {schedules.length ? (
                <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                  {schedules.slice(0, 6).map((s) => (
                    <ScheduleCard key={s.id} batch={s} />
                  ))}
                </div>
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
        <div className="mt-10 text-center">
          <Link to="/schedules" className={buttonClass("outline")}>
            View Full Schedule
          </Link>
        </div>
      </div>
    </section>
  );
}
