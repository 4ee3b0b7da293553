import { Link } from "react-router";
import { useFigures } from "~/components/site/use-figures";
import { reviewCards } from "~/util/figures";
import { buttonClass } from "~/components/ui/button";
import { Notice } from "~/components/ui/notice";
import { FilterLinks } from "~/components/site/filter-links";
import { PageHero } from "~/components/site/page-hero";
import { ReviewCard, type ReviewSummary } from "~/components/site/review-card";
import { TryAgain } from "~/components/site/try-again";
import { TESTIMONIALS } from "~/config/site";
import { breadcrumbLd, seoMeta } from "~/util/seo";
import { listReviews, reviewStats } from "~/models/review.server";
import { publicOrigin } from "~/util/origin.server";
import type { Route } from "./+types/_site.reviews";
import { unavailable } from "~/web/public-data.server";
import { passLoaderHeaders } from "~/web/action-headers";

/** The course filter buttons (spec §2); each matches reviews whose course name contains the text. */
const COURSE_FILTERS = [
  { value: "", label: "All Reviews" },
  { value: "SOC Analyst", label: "SOC Analyst" },
  { value: "Fundamentals", label: "Fundamentals" },
  { value: "Penetration Testing", label: "Penetration Testing" },
  { value: "Network", label: "Network" },
  { value: "Cloud", label: "Cloud" },
];

/** Shown beside the load-failure message (spec §8). */
const SAMPLE_REVIEWS: ReviewSummary[] = TESTIMONIALS.map((t, i) => ({
  id: `sample-${i}`,
  name: t.name,
  position: t.position,
  image: t.image,
  rating: t.rating,
  review: t.quote,
  course: t.course,
  type: "text",
  videoThumbnail: null,
  linkedin: null,
}));

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string) {
  return seoMeta({
    title: "Student Success Stories",
    description: "Reviews from SOC analysts, penetration testers and cloud security engineers who trained with us in Hyderabad.",
    path: "/reviews",
    origin,
    jsonLd: [breadcrumbLd(origin, [{ name: "Reviews", path: "/reviews" }])],
  });
}

export const headers = passLoaderHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const wanted = new URL(request.url).searchParams.get("course") ?? "";
  const course = COURSE_FILTERS.some((f) => f.value === wanted) ? wanted : "";
  try {
    const [page, stats] = await Promise.all([listReviews({ audience: "public", courseContains: course || undefined, limit: 100 }), reviewStats()]);
    const reviews: ReviewSummary[] = page.data.map(({ id, name, position, image, rating, review, course, type, videoThumbnail, linkedin }) => ({
      id,
      name,
      position,
      image,
      rating,
      review,
      course,
      type,
      videoThumbnail,
      linkedin,
    }));
    return { seo: pageSeo(publicOrigin()), failed: false, course, reviews, average: stats.average, count: stats.count };
  } catch (error) {
    console.error("Failed to load reviews", error);
    // The samples follow the chosen filter too (matched like the database does: the name contains the text).
    const samples = course ? SAMPLE_REVIEWS.filter((r) => r.course.toLowerCase().includes(course.toLowerCase())) : SAMPLE_REVIEWS;
    return unavailable({ seo: pageSeo(publicOrigin()), failed: true, course, reviews: samples, average: null, count: 0 });
  }
}

export default function Reviews({ loaderData }: Route.ComponentProps) {
  const { failed, course, reviews } = loaderData;
  // The same figures as every other page (the site settings); the dashboard compares the rating with the reviews.
  const stats = reviewCards(useFigures());
  return (
    <main id="main">
      <PageHero
        title="Student Success Stories"
        crumbs={[{ name: "Reviews" }]}
        intro="Hear from learners who moved into security operations, testing and cloud security roles."
      />
      <section aria-label="Review statistics" className="border-b border-slate-200">
        <dl className="mx-auto grid max-w-5xl gap-4 px-4 py-10 sm:grid-cols-3 sm:px-6">
          {stats.map((s) => (
            <div key={s.label} className="flex flex-col-reverse rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
              <dt className="mt-1 text-sm font-medium text-slate-600">{s.label}</dt>
              <dd className="text-3xl font-extrabold text-brand-700">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="reviews-title" className="py-14 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <h2 id="reviews-title" className="sr-only">
            Reviews
          </h2>
          <FilterLinks
            label="Filter reviews by course"
            options={COURSE_FILTERS}
            current={course}
            hrefFor={(v) => (v ? `/reviews?course=${encodeURIComponent(v)}` : "/reviews")}
          />
          <div className="mt-10 space-y-8">
            {failed ? (
              <Notice tone="error" action={<TryAgain action="/reviews" params={{ course }} />}>
                Failed to load reviews. Please try again later.
              </Notice>
            ) : null}
            {reviews.length ? (
              <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
                {reviews.map((r) => (
                  <li key={r.id}>
                    <ReviewCard review={r} />
                  </li>
                ))}
              </ul>
            ) : (
              <Notice
                action={
                  <Link to="/reviews" preventScrollReset className={buttonClass("primary")}>
                    Show All Reviews
                  </Link>
                }
              >
                No reviews found for the selected course.
              </Notice>
            )}
          </div>
        </div>
      </section>
      <section className="hero-band py-14 text-center text-white" aria-labelledby="share-title">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="share-title" className="text-2xl font-extrabold sm:text-3xl">
            Trained with us? Share your story
          </h2>
          <p className="mt-3 text-blue-100">Send us your testimonial and we will feature it here.</p>
          <Link to="/contact" className={buttonClass("accent", "mt-6")}>
            Submit Your Testimonial
          </Link>
        </div>
      </section>
    </main>
  );
}
