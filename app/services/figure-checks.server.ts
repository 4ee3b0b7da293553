import { listCourseTitles } from "~/models/course.server";
import { reviewStats } from "~/models/review.server";
import { getSiteSettings } from "./site-settings.server";

/**
 * Where the data can contradict a public figure (issue 27, item 5): more courses claimed than are published, a
 * rating above the average of the approved (public) reviews, more reviews claimed than are approved. One sentence
 * per claim that goes beyond the data, for the dashboard; none when every claim holds.
 */
export async function figureWarnings(): Promise<string[]> {
  const [figures, courses, reviews] = await Promise.all([getSiteSettings(), listCourseTitles("public"), reviewStats()]);
  const warnings: string[] = [];
  if (figures.coursesClaimed > courses.length) {
    warnings.push(
      `The site says ${figures.coursesClaimed}+ specialized courses, but ${courses.length} ${courses.length === 1 ? "course is" : "courses are"} published.`,
    );
  }
  const rating = figures.rating.toFixed(1);
  if (reviews.average === null) warnings.push(`The site says it is rated ${rating}/5, but no review is approved and published.`);
  else if (figures.rating > reviews.average) {
    warnings.push(`The site says it is rated ${rating}/5, but the ${reviews.count} approved reviews average ${reviews.average.toFixed(1)}.`);
  }
  if (figures.ratingCount > reviews.count) {
    warnings.push(`The site says ${figures.ratingCount}+ reviews, but ${reviews.count} ${reviews.count === 1 ? "is" : "are"} approved and published.`);
  }
  return warnings;
}
