import { describe, expect, it } from "vitest";
import { mediaTypes } from "~/schemas/upload-media-types";
import { acceptList, looksAccepted, typeNames } from "./uploads";

describe("upload types, defined once", () => {
  it("name every type a hint must mention, WebP and AVIF included", () => {
    expect(typeNames("image")).toBe("JPG, PNG, GIF, WebP or AVIF");
    expect(typeNames("syllabus")).toBe("PDF, DOC or DOCX");
    expect(typeNames("attachment")).toBe("PDF, DOC, DOCX, JPG or PNG");
  });

  it("give the accept list and the server's media types from the same entries", () => {
    expect(acceptList("image")).toBe(".jpg,.jpeg,.png,.gif,.webp,.avif");
    expect(mediaTypes("attachment")).toEqual({
      pdf: "application/pdf",
      doc: "application/msword",
      docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      jpg: "image/jpeg",
      png: "image/png",
    });
  });

  it("let the browser's early check pass what the server takes", () => {
    expect(looksAccepted("image", { name: "cover.WEBP", type: "" })).toBe(true);
    expect(looksAccepted("image", { name: "cover", type: "image/avif" })).toBe(true);
    expect(looksAccepted("image", { name: "cover.svg", type: "image/svg+xml" })).toBe(false);
    expect(looksAccepted("syllabus", { name: "s.docx" })).toBe(true);
    expect(looksAccepted("attachment", { name: "cv.gif", type: "image/gif" })).toBe(false);
  });
});
