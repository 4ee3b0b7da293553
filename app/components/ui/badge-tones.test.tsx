import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StatusBadge } from "~/components/admin/status-badge";
import { CategoryBadge } from "~/components/site/course-card";
import { COURSE_CATEGORIES, DELIVERY_MODES } from "~/schemas/values";
import { BADGE_TONES, COURSE_CATEGORY_TONE, DELIVERY_MODE_TONE } from "./badge-tones";

/** Issue 27: a course level has one colour on the site and in the back office (it was red on one, purple on the other). */
const colours = (html: string) => (/class="([^"]*)"/.exec(html)?.[1] ?? "").split(" ").filter((c) => /^(bg|text)-(?!xs)/.test(c));

describe("badge colours", () => {
  it("give every level and mode a distinct tone", () => {
    expect(new Set(COURSE_CATEGORIES.map((c) => COURSE_CATEGORY_TONE[c])).size).toBe(COURSE_CATEGORIES.length);
    expect(new Set(DELIVERY_MODES.map((m) => DELIVERY_MODE_TONE[m])).size).toBe(DELIVERY_MODES.length);
  });

  it("are the same for a course level on a course card and in the staff list", () => {
    for (const category of COURSE_CATEGORIES) {
      const site = colours(renderToStaticMarkup(<CategoryBadge category={category} />));
      const admin = colours(renderToStaticMarkup(<StatusBadge tone={COURSE_CATEGORY_TONE[category]}>x</StatusBadge>));
      expect(site.length).toBeGreaterThan(0);
      expect(site).toEqual(admin);
      expect(BADGE_TONES[COURSE_CATEGORY_TONE[category]]).toContain(site[0]);
    }
  });
});
