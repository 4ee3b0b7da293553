import { describe, expect, it } from "vitest";
import { bodyLimit, MAX_BODY_BYTES, MAX_MULTIPART_BYTES, takesFiles } from "./body";

describe("body limits", () => {
  it("gives the large multipart limit only to the routes that take files", () => {
    for (const path of [
      "/enquiry",
      "/enquiry.data",
      "/admin/courses/new",
      "/admin/courses/abc123/edit",
      "/admin/courses/save",
      "/admin/courses/syllabus-image",
      "/api/courses",
      "/api/courses/abc123",
      "/ADMIN/courses/save",
      "/%61pi/courses",
    ]) {
      expect(takesFiles(path), path).toBe(true);
      expect(bodyLimit("multipart", path), path).toBe(MAX_MULTIPART_BYTES);
    }
    for (const path of [
      "/",
      "/_root.data",
      "/contact",
      "/admin/login",
      "/admin/users/new",
      "/api/enquiries",
      "/api/courses/abc/extra",
      "/enquiry/x",
      "/admin/courses/a/b/edit",
    ]) {
      expect(takesFiles(path), path).toBe(false);
      expect(bodyLimit("multipart", path), path).toBe(MAX_BODY_BYTES);
    }
  });

  it("keeps forms and JSON small everywhere, upload routes included", () => {
    expect(bodyLimit("buffered", "/enquiry")).toBe(MAX_BODY_BYTES);
    expect(bodyLimit("buffered", "/api/courses")).toBe(MAX_BODY_BYTES);
  });
});
