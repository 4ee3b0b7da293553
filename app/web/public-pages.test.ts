import { describe, expect, it } from "vitest";
import { isCacheablePublicPath } from "./public-pages";

describe("the public pages, defined once", () => {
  it("let the page cache keep the pages, their data requests, course pages and the public reads", () => {
    for (const path of [
      "/",
      "/_root.data",
      "/about",
      "/courses",
      "/courses.data",
      "/courses/soc-analyst",
      "/courses/soc-analyst.data",
      "/schedules",
      "/enquiry",
      "/contact.data",
      "/privacy",
      "/sitemap.xml",
      "/robots.txt",
      "/schedules.ics",
      "/schedules/abc.ics",
      "/api/courses",
      "/api/reviews/abc",
    ]) {
      expect(isCacheablePublicPath(path), path).toBe(true);
    }
  });

  it("keep everything else out", () => {
    for (const path of [
      "/admin",
      "/admin/courses",
      "/api/enquiries",
      "/api/courses/a/b",
      "/courses/a/b",
      "/.data",
      "/waitlist/offer",
      // A person's own page and a guardian's consent page are personal: never kept.
      "/me",
      "/me.data",
      "/me/data.json",
      "/guardian/consent",
      "/aboutx",
      "/xabout",
      "/media/images/a.webp",
    ]) {
      expect(isCacheablePublicPath(path), path).toBe(false);
    }
  });
});
