import type { SiteSettings } from "~/schemas/site-settings";

/**
 * The public figures as every page words them (issue 27, item 5): one source (the site settings), one wording.
 * A service ("placement assistance for every student") and an outcome ("92% placed") never share a label.
 */
export type Figures = Pick<
  SiteSettings,
  "studentsTrained" | "coursesClaimed" | "placementAssistance" | "rating" | "ratingCount" | "recommendRate" | "placementRate"
>;

export function pickFigures(s: SiteSettings): Figures {
  return {
    studentsTrained: s.studentsTrained,
    coursesClaimed: s.coursesClaimed,
    placementAssistance: s.placementAssistance,
    rating: s.rating,
    ratingCount: s.ratingCount,
    recommendRate: s.recommendRate,
    placementRate: s.placementRate,
  };
}

/** "4.9": one decimal, always. */
export const ratingText = (f: Figures) => f.rating.toFixed(1);
export const ratingCountText = (f: Figures) => `${f.ratingCount}+`;
export const studentsText = (f: Figures) => `${f.studentsTrained}+`;

/** The home page's stats band (spec §1). */
export function statsBand(f: Figures): { value: string; label: string; note?: string }[] {
  return [
    { value: studentsText(f), label: "Students Trained" },
    { value: `${f.coursesClaimed}+`, label: "Specialized Courses" },
    { value: `${f.placementAssistance}%`, label: "Placement Assistance", note: f.placementAssistance >= 100 ? "for every student" : undefined },
    { value: "24/7", label: "Learner Support" },
  ];
}

/** The reviews page's cards: the rating as everywhere else, and outcomes labelled as outcomes. */
export function reviewCards(f: Figures): { value: string; label: string }[] {
  return [
    { value: `${ratingText(f)}/5`, label: `Average rating from ${ratingCountText(f)} reviews` },
    { value: `${f.recommendRate}%`, label: "Would Recommend Us" },
    { value: `${f.placementRate}%`, label: "Placed after the course" },
  ];
}
