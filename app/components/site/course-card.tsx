import { Link } from "react-router";
import { COURSE_CATEGORY_TONE, toneClasses } from "~/components/ui/badge-tones";
import { buttonClass } from "~/components/ui/button";
import { BookIcon, ClockIcon, ShieldIcon } from "~/components/ui/icons";
import { capitalize } from "~/util/format";
import type { CourseSummary } from "~/web/public-views";
import { courseFeeLine } from "~/util/fee";

/** The course's fee as every card says it: "Fee: ₹45,000 (incl. GST)" or "Fee: Fee on request". */
export function CourseFee({ course, className = "" }: { course: Pick<CourseSummary, "fee" | "feeIncludesGst">; className?: string }) {
  return (
    <p className={`font-semibold text-slate-900 ${className}`} data-testid="course-fee">
      {courseFeeLine(course)}
    </p>
  );
}

export function CategoryBadge({ category }: { category: string }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${toneClasses(COURSE_CATEGORY_TONE, category)}`}>
      {capitalize(category)}
    </span>
  );
}

export function enquiryHref(courseTitle: string, batch?: { date: string; mode: string }): string {
  const params = new URLSearchParams({ course: courseTitle });
  // A batch's Enroll Now names it by start date and mode: an institute often starts an online and an offline
  // batch of one course on the same day, and the mode also preselects the visitor's preferred mode.
  if (batch) {
    params.set("date", batch.date);
    params.set("mode", batch.mode);
  }
  return `/enquiry?${params}`;
}

/** The course picture, or a drawn placeholder when none was uploaded; fixed ratio so nothing shifts as it loads. */
export function CourseImage({
  course,
  className = "",
  eager = false,
}: {
  course: Pick<CourseSummary, "title" | "image">;
  className?: string;
  eager?: boolean;
}) {
  if (course.image) {
    return (
      <img
        src={course.image}
        alt=""
        width={640}
        height={360}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className={`aspect-video w-full object-cover ${className}`}
      />
    );
  }
  return (
    <div className={`hero-band flex aspect-video w-full items-center justify-center ${className}`} aria-hidden="true">
      <ShieldIcon className="text-6xl text-white/80" />
    </div>
  );
}

export function CourseCard({ course, syllabusHref, headingLevel = 3 }: { course: CourseSummary; syllabusHref: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md">
      <CourseImage course={course} />
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <CategoryBadge category={course.category} />
          {course.duration ? (
            <span className="inline-flex items-center gap-1">
              <ClockIcon /> {course.duration}
            </span>
          ) : null}
        </div>
        <Heading className="mt-3 text-lg font-bold text-slate-900">
          <Link to={`/courses/${course.slug}`} className="hover:text-brand-700 hover:underline">
            {course.title}
          </Link>
        </Heading>
        <p className="mt-2 line-clamp-3 text-sm text-slate-700">{course.description}</p>
        <CourseFee course={course} className="mt-3 text-sm" />
        {course.highlights.length ? (
          <ul className="check-list mt-3 space-y-1.5 text-sm text-slate-700">
            {course.highlights.slice(0, 3).map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
        ) : null}
        <div className="mt-auto flex flex-wrap gap-2 pt-5">
          <Link
            to={syllabusHref}
            preventScrollReset
            data-syllabus-trigger={course.slug}
            className={buttonClass("outline", "flex-1 px-3")}
            aria-label={`View syllabus: ${course.title}`}
          >
            <BookIcon /> View Syllabus
          </Link>
          <Link to={enquiryHref(course.title)} className={buttonClass("accent", "flex-1 px-3")} aria-label={`Enroll now: ${course.title}`}>
            Enroll Now
          </Link>
        </div>
      </div>
    </article>
  );
}

/** A featured programme, wide: image beside the text. `maxHighlights` is 4 on the home page (spec §9). */
export function FeaturedCourse({
  course,
  syllabusHref,
  maxHighlights,
  headingLevel = 3,
  imageFromTablet = false,
}: {
  course: CourseSummary;
  syllabusHref: string;
  maxHighlights?: number;
  headingLevel?: 2 | 3;
  /** The home page: no picture on a phone, where it would only make the page longer. */
  imageFromTablet?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const highlights = maxHighlights ? course.highlights.slice(0, maxHighlights) : course.highlights;
  return (
    <article className="grid overflow-hidden rounded-2xl border border-brand-100 bg-white shadow-md md:grid-cols-2">
      <CourseImage course={course} className={`h-full md:aspect-auto ${imageFromTablet ? "max-sm:hidden" : ""}`} />
      <div className="p-6 sm:p-8">
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <span className="rounded-full bg-accent-600 px-2.5 py-0.5 text-xs font-semibold text-white">Featured Program</span>
          <CategoryBadge category={course.category} />
          {course.duration ? (
            <span className="inline-flex items-center gap-1">
              <ClockIcon /> {course.duration}
            </span>
          ) : null}
        </div>
        <Heading className="mt-3 text-2xl font-bold text-slate-900">
          <Link to={`/courses/${course.slug}`} className="hover:text-brand-700 hover:underline">
            {course.title}
          </Link>
        </Heading>
        <p className={`mt-3 text-slate-700 ${imageFromTablet ? "max-sm:line-clamp-3" : ""}`}>{course.description}</p>
        <CourseFee course={course} className="mt-3" />
        {highlights.length ? (
          <ul className="check-list mt-4 grid gap-2 text-sm text-slate-800 sm:grid-cols-2">
            {highlights.map((h, i) => (
              // The home page on a phone: the first two (all four from the tablet width).
              <li key={h} className={imageFromTablet && i >= 2 ? "max-sm:hidden" : undefined}>
                {h}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to={enquiryHref(course.title)} className={buttonClass("accent", "max-sm:px-4")} aria-label={`Enroll now: ${course.title}`}>
            Enroll Now
          </Link>
          <Link
            to={syllabusHref}
            preventScrollReset
            data-syllabus-trigger={course.slug}
            className={buttonClass("outline", "max-sm:px-4")}
            aria-label={`View syllabus: ${course.title}`}
          >
            <BookIcon /> View Syllabus
          </Link>
        </div>
      </div>
    </article>
  );
}
