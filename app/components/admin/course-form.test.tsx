import { parseWithSchema } from "~/web/form-submission";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { courseSchema, IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE, SYLLABUS_MAX_BYTES, SYLLABUS_SIZE_MESSAGE } from "~/schemas/course";
import { checkImageFile, checkSyllabusFile } from "./course-file-fields";
import { CourseForm, type CourseActionData, type CourseFormCourse } from "./course-form";

const saved: CourseFormCourse = {
  title: "Saved title",
  category: "beginner",
  description: "Saved description",
  duration: "",
  featured: false,
  highlights: ["Saved highlight"],
  modes: [],
  syllabus: "Saved syllabus",
  image: "/media/images/0123456789abcdef0123456789abcdef.webp",
  syllabusFile: "/media/syllabus/0123456789abcdef0123456789abcdef.pdf",
  syllabusFileName: "threat-hunting.pdf",
};

/** The form as the server renders it (no JavaScript), after the action answered `actionData`. */
function render(course: CourseFormCourse | null, actionData?: CourseActionData) {
  const Stub = createRoutesStub([
    { path: "/admin/courses/x", Component: () => <CourseForm course={course} actionData={actionData} backTo="/admin/courses" saveUrl="/admin/courses/save" /> },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/admin/courses/x"]} />);
}

/** What the action answers to "+ Add Highlight" pressed without JavaScript (the form comes back, nothing saved). */
function addHighlightAnswer(fields: Record<string, string>): CourseActionData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("__intent__", JSON.stringify({ type: "insert", payload: { name: "highlights", defaultValue: "" } }));
  return { result: parseWithSchema(form, courseSchema).reply(), message: null, notice: null };
}

const textarea = (html: string) => /<textarea[^>]*name="syllabus"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1];
const checkbox = (html: string, name: string) => new RegExp(`<input type="checkbox"[^>]*name="${name}"[^>]*>`).exec(html)?.[0];

describe("course form without JavaScript, when the action renders it again", () => {
  it("keeps the syllabus as typed, not as saved", () => {
    const base = { title: "Typed title", category: "beginner", description: "Typed", "highlights[0]": "One" };
    expect(textarea(render(saved, addHighlightAnswer({ ...base, syllabus: "Week 1: log sources" })))).toBe("Week 1: log sources");
    expect(textarea(render(null, addHighlightAnswer({ ...base, syllabus: "Week 1: log sources" })))).toBe("Week 1: log sources");
    // Emptied on purpose: it stays empty rather than coming back from the saved course.
    expect(textarea(render(saved, addHighlightAnswer({ ...base, syllabus: "" })))).toBe("");
  });

  it("keeps Remove image and Remove syllabus file ticked when they were", () => {
    const base = { title: "t", category: "beginner", description: "d", "highlights[0]": "One", syllabus: "s" };
    const ticked = render(saved, addHighlightAnswer({ ...base, removeImage: "on", removeSyllabusFile: "on" }));
    expect(checkbox(ticked, "removeImage")).toContain('checked=""');
    expect(checkbox(ticked, "removeSyllabusFile")).toContain('checked=""');
    const unticked = render(saved, addHighlightAnswer(base));
    expect(checkbox(unticked, "removeImage")).not.toContain("checked");
    expect(checkbox(unticked, "removeSyllabusFile")).not.toContain("checked");
  });

  it("fills the syllabus from the course when first opened", () => {
    expect(textarea(render(saved))).toBe("Saved syllabus");
    expect(textarea(render(null))).toBe("");
  });
});

describe("course form syllabus file", () => {
  it("offers the stored file under its name, or course-syllabus.pdf when the name is empty", () => {
    expect(render(saved)).toContain(">Download threat-hunting.pdf</a>");
    const html = render({ ...saved, syllabusFileName: "" });
    expect(html).toContain('download="course-syllabus.pdf"');
    expect(html).toContain(">Download course-syllabus.pdf</a>");
  });
});

describe("file checks in the browser (spec §5: less than 5MB / 10MB, as the server)", () => {
  const sized = (bytes: number, name: string, type: string) => new File([new Uint8Array(bytes)], name, { type });

  it("accepts an image one byte under 5 MB and refuses one of exactly 5 MB", () => {
    expect(checkImageFile(sized(IMAGE_MAX_BYTES - 1, "a.png", "image/png"))).toBeNull();
    expect(checkImageFile(sized(IMAGE_MAX_BYTES, "a.png", "image/png"))).toBe(IMAGE_SIZE_MESSAGE);
  });

  it("accepts a syllabus file one byte under 10 MB and refuses one of exactly 10 MB", () => {
    expect(checkSyllabusFile(sized(SYLLABUS_MAX_BYTES - 1, "s.pdf", "application/pdf"))).toBeNull();
    expect(checkSyllabusFile(sized(SYLLABUS_MAX_BYTES, "s.pdf", "application/pdf"))).toBe(SYLLABUS_SIZE_MESSAGE);
  });
});
