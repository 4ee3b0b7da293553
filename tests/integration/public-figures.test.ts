import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertReview } from "~/models/review.server";
import { loader as siteLoader } from "~/routes/_site";
import { loader as homeLoader } from "~/routes/_site._index";
import { loader as dashboardLoader } from "~/routes/admin.dashboard";
import { action as settingsAction } from "~/routes/admin.settings";
import { figureWarnings } from "~/services/figure-checks.server";
import { forgetSiteSettingsCache } from "~/services/site-settings.server";
import { SITE } from "~/config/site";
import { reviewCards, statsBand } from "~/util/figures";
import { useTestDatabase } from "../helpers/db";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";
import { callRoute, getRequest } from "./public-helpers";

/**
 * One source for every number (issue 27, item 5): the public figures are site settings with the spec's values as
 * defaults, every page reads them from the site layout's loader, and the dashboard warns when they claim more than
 * the data shows.
 */
useTestDatabase();

let admin = "";
let editor = "";
beforeAll(async () => {
  admin = await staffCookie("admin");
  editor = await staffCookie("editor");
  await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "SOC" });
  for (const rating of [5, 4, 4]) {
    await insertReview({
      name: `R${rating}`,
      position: "Analyst",
      image: "/a.svg",
      rating,
      review: "Good",
      course: "SOC Analyst Training Program",
      type: "text",
      approved: true,
    });
  }
});

const figures = async () => (await callRoute(siteLoader, getRequest("/"))).body.figures;
const ldRating = async () => {
  const home = await callRoute(homeLoader, getRequest("/"));
  const org = (home.body.seo as Record<string, unknown>[])
    .map((t) => t["script:ld+json"] as Record<string, unknown> | undefined)
    .find((b) => b?.["@type"] === "EducationalOrganization");
  return org!.aggregateRating;
};
const save = (values: Record<string, string>) =>
  run(
    settingsAction,
    makeRequest("/admin/settings", {
      cookie: admin,
      form: {
        studentsTrained: "5000",
        coursesClaimed: "10",
        placementAssistance: "100",
        rating: "4.9",
        ratingCount: "125",
        recommendRate: "98",
        placementRate: "92",
        privacyContactName: SITE.privacyContact.name,
        privacyContactEmail: SITE.privacyContact.email,
        privacyContactPhone: SITE.privacyContact.phone,
        privacyContactAddress: SITE.privacyContact.address,
        ...values,
      },
    }),
  );

describe("public figures", () => {
  it("start at the spec's values, worded with services and outcomes apart", async () => {
    const f = await figures();
    expect(f).toEqual({
      studentsTrained: 5000,
      coursesClaimed: 10,
      placementAssistance: 100,
      rating: 4.9,
      ratingCount: 125,
      recommendRate: 98,
      placementRate: 92,
    });
    expect(statsBand(f).map((s) => [s.value, s.label, s.note ?? null])).toEqual([
      ["5000+", "Students Trained", null],
      ["10+", "Specialized Courses", null],
      ["100%", "Placement Assistance", "for every student"],
      ["24/7", "Learner Support", null],
    ]);
    expect(reviewCards(f)).toEqual([
      { value: "4.9/5", label: "Average rating from 125+ reviews" },
      { value: "98%", label: "Would Recommend Us" },
      { value: "92%", label: "Placed after the course" },
    ]);
    expect(await ldRating()).toEqual({ "@type": "AggregateRating", ratingValue: 4.9, bestRating: 5, reviewCount: 125 });
  });

  it("the dashboard warns while the figures claim more than the data: courses published, the reviews' average and count", async () => {
    expect(await figureWarnings()).toEqual([
      "The site says 10+ specialized courses, but 1 course is published.",
      "The site says it is rated 4.9/5, but the 3 approved reviews average 4.3.",
      "The site says 125+ reviews, but 3 are approved and published.",
    ]);
    const dash = await run(dashboardLoader, makeRequest("/admin/dashboard", { cookie: editor }));
    expect((dash.body as { figureWarnings: string[] }).figureWarnings).toHaveLength(3);
  });

  it("an admin edits them in Site Settings: every page and the JSON-LD follow, and the warnings go", async () => {
    const bad = await save({ rating: "5.5", coursesClaimed: "" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("Rating must be a number from 1 to 5");

    const ok = await save({ coursesClaimed: "1", rating: "4.3", ratingCount: "3", studentsTrained: "6000" });
    expect(ok.status).toBe(302);
    forgetSiteSettingsCache();
    expect(await figures()).toMatchObject({ coursesClaimed: 1, rating: 4.3, ratingCount: 3, studentsTrained: 6000 });
    expect(await ldRating()).toMatchObject({ ratingValue: 4.3, reviewCount: 3 });
    expect(await figureWarnings()).toEqual([]);
  });
});
