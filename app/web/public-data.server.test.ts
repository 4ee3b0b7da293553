import { describe, expect, it } from "vitest";
import { demoteHeadings } from "./public-data.server";

describe("demoteHeadings", () => {
  it("moves syllabus headings below the page's own", () => {
    expect(demoteHeadings("<h1>A</h1><h2 id=x>B</h2><p>h1</p>")).toBe("<h3>A</h3><h4 id=x>B</h4><p>h1</p>");
    expect(demoteHeadings("<h1>T</h1><h2>M</h2><h3>S</h3><h2>N</h2><h1>U</h1>")).toBe("<h3>T</h3><h4>M</h4><h5>S</h5><h4>N</h4><h3>U</h3>");
  });
  it("stops at h6", () => {
    expect(demoteHeadings("<h1>A</h1><h2>B</h2><h3>C</h3><h4>D</h4><h5>E</h5>")).toBe("<h3>A</h3><h4>B</h4><h5>C</h5><h6>D</h6><h6>E</h6>");
  });
  it("never skips a level below the page's h2 or the heading before, and keeps the written size in a class", () => {
    expect(demoteHeadings("<h2>Week 1</h2><h4>Lab</h4><h3>Week 2</h3><h6>Note</h6>")).toBe(
      '<h3 class="syllabus-h4">Week 1</h3><h4 class="syllabus-h6">Lab</h4><h4 class="syllabus-h5">Week 2</h4><h5 class="syllabus-h6">Note</h5>',
    );
    expect(demoteHeadings("<h5>A</h5><h6>B</h6>")).toBe('<h3 class="syllabus-h6">A</h3><h4 class="syllabus-h6">B</h4>');
  });
});
