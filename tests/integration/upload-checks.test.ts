import fs from "node:fs";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { COURSE_IMAGE_RULE, COURSE_SYLLABUS_RULE } from "~/web/course-upload.server";
import { ENQUIRY_UPLOAD_RULE } from "~/web/site-forms.server";
import { BadMultipartError, parseMultipart, RequestTooLargeError, type MultipartResult } from "~/infra/uploads.server";
import { filesOnDisk, storedFilePath, uploadRoot } from "../helpers/stored-files";
import { IMAGE_MAX_BYTES, IMAGE_TYPE_MESSAGE, SYLLABUS_MAX_BYTES, SYLLABUS_SIZE_MESSAGE, SYLLABUS_TYPE_MESSAGE } from "~/schemas/course";
import { ENQUIRY_FILE_COUNT_MESSAGE, ENQUIRY_FILE_MAX_BYTES, ENQUIRY_FILE_SIZE_MESSAGE, ENQUIRY_FILE_TYPE_MESSAGE } from "~/schemas/enquiry";
import { compoundFile, docx, elfExecutable, gif, jpeg, multipartBody, multipartRequest, PDF, png, windowsExecutable, zip, BOUNDARY } from "./upload-fixtures";

/**
 * The upload corpus against parseMultipart with real Requests and a real upload folder: the type comes from
 * the content, images keep only their pixels, archives are checked, and a refused save leaves no file behind.
 */
const RULES = [COURSE_IMAGE_RULE, COURSE_SYLLABUS_RULE, ENQUIRY_UPLOAD_RULE];

async function upload(field: string, filename: string, data: Buffer, type = "application/octet-stream"): Promise<MultipartResult> {
  return parseMultipart(
    multipartRequest([
      { name: "title", value: "Course" },
      { name: field, filename, type, data },
    ]),
    RULES,
  );
}

afterEach(() => fs.rmSync(uploadRoot(), { recursive: true, force: true }));

describe("type by content, not by name or declared type", () => {
  const refused: [string, string, string, () => Buffer | Promise<Buffer>, string][] = [
    ["a Windows executable renamed .pdf", "syllabusFile", "syllabus.pdf", windowsExecutable, SYLLABUS_TYPE_MESSAGE],
    ["a Windows executable renamed .jpg", "image", "photo.jpg", windowsExecutable, IMAGE_TYPE_MESSAGE],
    ["an ELF binary renamed .png", "filePaths", "resume.png", elfExecutable, ENQUIRY_FILE_TYPE_MESSAGE],
    ["a shell script renamed .pdf", "filePaths", "cv.pdf", () => Buffer.from("#!/bin/sh\nrm -rf /\n"), ENQUIRY_FILE_TYPE_MESSAGE],
    ["an HTML page renamed .jpg", "image", "x.jpg", () => Buffer.from("<html><script>alert(1)</script></html>"), IMAGE_TYPE_MESSAGE],
    ["an SVG with script", "image", "logo.svg", () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), IMAGE_TYPE_MESSAGE],
    ["a PDF offered as a course image", "image", "x.png", () => PDF, IMAGE_TYPE_MESSAGE],
    ["a plain ZIP renamed .docx", "syllabusFile", "s.docx", () => zip([{ name: "readme.txt", data: Buffer.from("hi") }]), SYLLABUS_TYPE_MESSAGE],
    ["an installer (compound file without a Word stream) renamed .doc", "syllabusFile", "s.doc", () => compoundFile(false), SYLLABUS_TYPE_MESSAGE],
    ["a compound file under a name other than .doc", "filePaths", "s.msi", () => compoundFile(true), ENQUIRY_FILE_TYPE_MESSAGE],
    ["a GIF as an enquiry attachment", "filePaths", "a.gif", gif, ENQUIRY_FILE_TYPE_MESSAGE],
    ["an empty file", "filePaths", "empty.pdf", () => Buffer.alloc(0), ENQUIRY_FILE_TYPE_MESSAGE],
    ["a truncated image", "image", "cut.png", async () => (await png(400, 400)).subarray(0, 60), IMAGE_TYPE_MESSAGE],
  ];
  for (const [label, field, filename, make, message] of refused) {
    it(`refuses ${label}`, async () => {
      const r = await upload(field, filename, await make(), field === "image" ? "image/jpeg" : "application/pdf");
      expect(r.errors[field]).toBe(message);
      expect(r.files).toEqual([]);
      expect(filesOnDisk()).toEqual([]);
    });
  }

  it("accepts a real PDF, DOCX and Word 97 file and stores them under random names", async () => {
    const r = await parseMultipart(
      multipartRequest([
        { name: "syllabusFile", filename: "../../etc/passwd.pdf", data: PDF },
        { name: "filePaths", filename: "CV<script>.docx", data: docx() },
        { name: "filePaths", filename: "old.doc", data: compoundFile(true) },
      ]),
      RULES,
    );
    expect(r.errors).toEqual({});
    expect(r.files.map((f) => f.mime)).toEqual([
      "application/pdf",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/msword",
    ]);
    const [syllabus, cv] = r.files;
    expect(syllabus.storedName).toMatch(/^[a-f0-9]{32}\.pdf$/);
    expect(syllabus.url).toBe(`/media/syllabus/${syllabus.storedName}`);
    expect(cv.storedName).toMatch(/^[a-f0-9]{32}-CV_script_\.docx$/);
    expect(cv.url).toBeNull();
    expect(syllabus.key.startsWith("syllabus/")).toBe(true);
    expect(cv.key.startsWith("enquiries/")).toBe(true);
    expect(filesOnDisk().some((f) => f.startsWith("tmp"))).toBe(false);
  });
});

describe("polyglots keep only their pixels", () => {
  const payload = Buffer.from('<html><body><script>alert("polyglot")</script></body></html>/*');

  it("a GIF/JavaScript polyglot becomes a plain WebP course image", async () => {
    const r = await upload("image", "x.gif", Buffer.concat([await gif(), Buffer.from("*/=1;alert(document.cookie)//"), payload]), "image/gif");
    expect(r.errors).toEqual({});
    const [file] = r.files;
    expect(file.storedName).toMatch(/^[a-f0-9]{32}\.webp$/);
    const stored = fs.readFileSync(storedFilePath(file.key));
    expect((await sharp(stored).metadata()).format).toBe("webp");
    expect(stored.includes(Buffer.from("alert"))).toBe(false);
  });

  it("a JPEG with HTML appended, attached to an enquiry, is re-encoded without the HTML or its EXIF", async () => {
    const original = await jpeg();
    expect(original.includes(Buffer.from("secret-exif-marker"))).toBe(true);
    const r = await upload("filePaths", "photo.jpg", Buffer.concat([original, payload]), "image/jpeg");
    expect(r.errors).toEqual({});
    const stored = fs.readFileSync(storedFilePath(r.files[0].key));
    expect(r.files[0].storedName).toMatch(/^[a-f0-9]{32}-photo\.jpg$/);
    expect((await sharp(stored).metadata()).format).toBe("jpeg");
    expect(stored.includes(Buffer.from("<script"))).toBe(false);
    expect(stored.includes(Buffer.from("secret-exif-marker"))).toBe(false);
  });

  it("a PNG with a PHP payload appended is re-encoded as PNG", async () => {
    const r = await upload("filePaths", "shot.png", Buffer.concat([await png(), Buffer.from("<?php system($_GET['c']); ?>")]), "image/png");
    const stored = fs.readFileSync(storedFilePath(r.files[0].key));
    expect((await sharp(stored).metadata()).format).toBe("png");
    expect(stored.includes(Buffer.from("<?php"))).toBe(false);
  });

  it("a large course image is resized to at most 1600 px", async () => {
    const r = await upload("image", "big.png", await png(3000, 1000), "image/png");
    const meta = await sharp(storedFilePath(r.files[0].key)).metadata();
    expect([meta.width, meta.height]).toEqual([1600, 533]);
  });

  it("a decompression bomb (tiny file, huge canvas) is refused", async () => {
    // 8000 × 8000 = 64 million pixels (over the 50 million limit) in a file of a few dozen kilobytes.
    const bomb = await sharp(Buffer.alloc(8000 * 8000), { raw: { width: 8000, height: 8000, channels: 1 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(IMAGE_MAX_BYTES);
    const r = await upload("image", "bomb.png", bomb, "image/png");
    expect(r.errors.image).toBe(IMAGE_TYPE_MESSAGE);
    expect(filesOnDisk()).toEqual([]);
  });
});

describe("archives within limits", () => {
  it("refuses a zip-bomb DOCX (a small file that inflates to hundreds of megabytes)", async () => {
    const bomb = docx([{ name: "word/media/zeros.bin", data: Buffer.alloc(200 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(SYLLABUS_MAX_BYTES);
    const r = await upload("syllabusFile", "syllabus.docx", bomb);
    expect(r.errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
    expect(filesOnDisk()).toEqual([]);
  });

  it("refuses a DOCX whose archive lies about an entry's size", async () => {
    const liar = docx([{ name: "word/styles.xml", data: Buffer.alloc(3 * 1024 * 1024, 0x41), declaredSize: 1000 }]);
    const r = await upload("filePaths", "cv.docx", liar);
    expect(r.errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
  });

  it("refuses a DOCX with too many parts", async () => {
    const many = docx(Array.from({ length: 1100 }, (_, i) => ({ name: `word/p${i}.xml`, data: Buffer.from("x"), store: true })));
    const r = await upload("syllabusFile", "s.docx", many);
    expect(r.errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
  });

  it("refuses a DOCX that carries macros", async () => {
    const r = await upload("syllabusFile", "s.docx", docx([{ name: "word/vbaProject.bin", data: Buffer.from("macro") }]));
    expect(r.errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
  });

  it("refuses a DOCX with a path-traversal entry name", async () => {
    const r = await upload("syllabusFile", "s.docx", docx([{ name: "../../evil.sh", data: Buffer.from("x") }]));
    expect(r.errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
  });
});

describe("sizes and counts", () => {
  it("refuses an attachment over 5 MB with the spec's message and keeps none of the others", async () => {
    const r = await parseMultipart(
      multipartRequest([
        { name: "filePaths", filename: "ok.pdf", data: PDF },
        { name: "filePaths", filename: "big.pdf", data: Buffer.concat([PDF, Buffer.alloc(ENQUIRY_FILE_MAX_BYTES)]) },
      ]),
      RULES,
    );
    expect(r.errors.filePaths).toBe(ENQUIRY_FILE_SIZE_MESSAGE);
    expect(r.errorKinds.filePaths).toBe("size");
    expect(r.files).toEqual([]);
    expect(filesOnDisk()).toEqual([]);
  });

  it('takes "less than 5MB" literally: one byte under the limit is kept, exactly the limit is refused', async () => {
    const sized = (n: number) => Buffer.concat([PDF, Buffer.alloc(n - PDF.length, 0x20)]);
    const under = await parseMultipart(multipartRequest([{ name: "filePaths", filename: "under.pdf", data: sized(ENQUIRY_FILE_MAX_BYTES - 1) }]), RULES);
    expect(under.errors).toEqual({});
    expect(under.files).toHaveLength(1);
    const exact = await parseMultipart(multipartRequest([{ name: "syllabusFile", filename: "exact.pdf", data: sized(SYLLABUS_MAX_BYTES) }]), RULES);
    expect(exact.errors.syllabusFile).toBe(SYLLABUS_SIZE_MESSAGE);
    expect(exact.files).toEqual([]);
  });

  it("refuses a fourth attachment", async () => {
    const parts = Array.from({ length: 4 }, (_, i) => ({ name: "filePaths", filename: `f${i}.pdf`, data: PDF }));
    const r = await parseMultipart(multipartRequest(parts), RULES);
    expect(r.errors.filePaths).toBe(ENQUIRY_FILE_COUNT_MESSAGE);
    expect(filesOnDisk()).toEqual([]);
  });

  it("refuses a whole body over the limit, declared or streamed without a length", async () => {
    const parts = [{ name: "filePaths", filename: "big.pdf", data: Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024)]) }];
    await expect(parseMultipart(multipartRequest(parts), RULES, { maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(RequestTooLargeError);
    await expect(parseMultipart(multipartRequest(parts, { chunked: true }), RULES, { maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(RequestTooLargeError);
    expect(filesOnDisk()).toEqual([]);
  });

  it("files for fields without a rule are drained, not stored", async () => {
    const r = await parseMultipart(
      multipartRequest([
        { name: "other", filename: "x.pdf", data: PDF },
        { name: "title", value: "T" },
      ]),
      RULES,
    );
    expect(r.files).toEqual([]);
    expect(r.formData.get("title")).toBe("T");
    expect(filesOnDisk()).toEqual([]);
  });
});

describe("malformed multipart is a 400, never a crash", () => {
  const body = multipartBody([{ name: "title", value: "x" }]);
  const cases: [string, Request][] = [
    ["no boundary", multipartRequest([], { contentType: "multipart/form-data", body })],
    ["a boundary that never appears", multipartRequest([], { contentType: "multipart/form-data; boundary=nope", body: Buffer.from("--other\r\n\r\nabc") })],
    ["a truncated body", multipartRequest([], { body: body.subarray(0, body.length - 10) })],
    ["a part without headers", multipartRequest([], { body: Buffer.from(`--${BOUNDARY}\r\n\r\n\r\nvalue\r\n--${BOUNDARY}--`) })],
    ["a field over 1 MB", multipartRequest([{ name: "message", value: "a".repeat(1024 * 1024 + 10) }])],
  ];
  for (const [label, request] of cases) {
    it(`${label}`, async () => {
      const error = await parseMultipart(request, RULES).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BadMultipartError);
      expect((error as BadMultipartError).status).toBe(400);
      expect(filesOnDisk()).toEqual([]);
    });
  }
});
