import { describe, expect, it } from "vitest";
import { demoteHeadings } from "./public-data.server";

describe("demoteHeadings", () => {
  it("moves syllabus headings below the page's own", () => {
    expect(demoteHeadings("<h1>A</h1><h2 id=x>B</h2><p>h1</p>")).toBe("<h3>A</h3><h4 id=x>B</h4><p>h1</p>");
  });
  it("stops at h6", () => {
    expect(demoteHeadings("<h5>A</h5><h6>B</h6>")).toBe("<h6>A</h6><h6>B</h6>");
  });
});
