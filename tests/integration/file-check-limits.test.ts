import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { deflateSync } from "node:zlib";
import { StepBudget } from "~/infra/file-checks/budget.server";
import { detectType, FILE_CHECK_DEADLINE_MS } from "~/infra/file-checks/index.server";
import { pdfActiveContent } from "~/infra/file-checks/pdf-active-content.server";
import { parseMultipart } from "~/infra/uploads.server";
import { ACTIVE_PDF_MESSAGES } from "~/schemas/uploads";
import { ENQUIRY_FILE_TYPE_MESSAGE } from "~/schemas/enquiry";
import { ENQUIRY_UPLOAD_RULE } from "~/web/site-forms.server";
import { startApiServer } from "../helpers/api-server";
import { filesOnDisk, uploadRoot } from "../helpers/stored-files";
import { docx, multipartRequest } from "./upload-fixtures";

/**
 * A visitor's file cannot stall the server (issue 36, item 1): the reviewer's 2.4 KB PDF whose actions name the
 * next action twice per level, 20 levels deep, blocked every request for 15 s; an 800 KB PDF defining one object
 * 40,000 times, 22 s. Every check now runs in the file-check process under a step budget with visited sets, a heap
 * ceiling and a deadline. The walks are measured in steps (not in time, which moves with the machine): each
 * action and object costs what its size does. Then a real server takes those files (and a deeply nested DOCX, and
 * one that runs its budget out) while /healthz is asked every 100 ms.
 */

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "soc-file-limits-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
afterEach(() => fs.rmSync(uploadRoot(), { recursive: true, force: true }));
let count = 0;
function saved(data: Buffer): string {
  const file = path.join(scratch, `${++count}.pdf`);
  fs.writeFileSync(file, data);
  return file;
}

function written(objects: string[], root = 1): Buffer {
  let body = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  objects.forEach((o, i) => (body += `${i + 1} 0 obj\n${o}\nendobj\n`));
  return Buffer.from(`${body}trailer\n<< /Root ${root} 0 R /Size ${objects.length + 1} >>\n%%EOF\n`, "latin1");
}

const PAGES = ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>"];

/** The reviewer's file: an opening action whose /Next names the next level's action twice, `levels` deep; the last opens `lastAction`. */
function doublingChain(levels: number, lastAction = "<< /S /GoTo /D [3 0 R /Fit] >>"): Buffer {
  const objects = ["<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>", ...PAGES];
  for (let i = 0; i < levels; i++) {
    const next = 5 + i;
    objects.push(i === levels - 1 ? lastAction : `<< /S /GoTo /D [3 0 R /Fit] /Next [${next} 0 R ${next} 0 R] >>`);
  }
  return written(objects);
}

/** One object defined `times` times (each definition a version the walk must see). */
function redefined(times: number, object = "<< /A 1 >>", extraPages = ""): Buffer {
  let body = "%PDF-1.7\n";
  body += `1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n`;
  body += `3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ${extraPages} >>\nendobj\n`;
  const one = `5 0 obj\n${object}\nendobj\n`;
  body += one.repeat(times);
  return Buffer.from(`${body}trailer\n<< /Root 1 0 R /Size 6 >>\n%%EOF\n`, "latin1");
}

describe("the PDF walk costs what the file's size does", () => {
  it("follows an action chain that doubles at every level once per action (20 and 40 levels)", async () => {
    for (const levels of [20, 40]) {
      const steps = new StepBudget(1_000_000);
      expect(await pdfActiveContent(saved(doublingChain(levels)), steps)).toBe("plain");
      // 2^40 paths; a few steps per object.
      expect(steps.spent).toBeLessThan(50 * levels);
    }
  });

  it("follows a list of actions that names the next list twice per level once per list (40 levels)", async () => {
    // /Next may be a list of actions: lists naming the next list twice, 40 deep, were 2^40 paths (the budget ran
    // out in 0.7 s and the file was refused; 20 deep, 2 million steps for a 1.4 KB file).
    const objects = ["<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>", ...PAGES];
    for (let i = 0; i < 40; i++) objects.push(i === 39 ? "<< /S /GoTo /D [3 0 R /Fit] >>" : `[${5 + i} 0 R ${5 + i} 0 R]`);
    const steps = new StepBudget(1_000_000);
    expect(await pdfActiveContent(saved(written(objects)), steps)).toBe("plain");
    expect(steps.spent).toBeLessThan(50 * 40);
  });

  it("still finds the web address at the end of such a chain", async () => {
    const steps = new StepBudget(1_000_000);
    expect(await pdfActiveContent(saved(doublingChain(30, "<< /S /URI /URI (http://203.0.113.9/) >>")), steps)).toBe("active");
    expect(steps.spent).toBeLessThan(2_000);
  });

  it("reads an object defined 40,000 times (800 KB) in steps that grow with the definitions, and sees a harmful one among them", async () => {
    const steps = new StepBudget(10_000_000);
    const file = redefined(40_000);
    expect(file.length).toBeGreaterThan(700_000);
    expect(await pdfActiveContent(saved(file), steps)).toBe("plain");
    expect(steps.spent).toBeLessThan(10 * 40_000);

    // The harmful version in the middle of the 40,000.
    const middle = file.indexOf("5 0 obj", file.length / 2);
    const harmful = Buffer.concat([
      file.subarray(0, middle),
      Buffer.from("5 0 obj\n<< /S /JavaScript /JS (app.alert(1)) >>\nendobj\n", "latin1"),
      file.subarray(middle),
    ]);
    expect(await pdfActiveContent(saved(harmful))).toBe("active");
  });

  it("refuses a file that would cost more than its budget, with the plain-PDF message", async () => {
    // 300 link annotations whose additional actions all name an object defined 40,000 times: every annotation
    // makes the walk look at all 40,000 versions (12 million steps, over the budget of ten million).
    const annots = Array.from({ length: 300 }, () => "<< /Subtype /Link /Rect [0 0 1 1] /AA << /E 5 0 R >> >>").join(" ");
    const file = redefined(40_000, "<< /S /GoTo /D [3 0 R /Fit] >>", `/Annots [${annots}]`);
    expect(await pdfActiveContent(saved(file))).toBe("unreadable");
    const upload = await parseMultipart(multipartRequest([{ name: "filePaths", filename: "cv.pdf", data: file }]), [ENQUIRY_UPLOAD_RULE]);
    expect(upload.errors.filePaths).toBe(ACTIVE_PDF_MESSAGES.attachment);
    expect(filesOnDisk()).toEqual([]);
  });
});

/** A 1.7 KB file: an object stream whose 50,000 entries all point at one 1 MB comment (pdf-lib reads it for each). */
function rereadObjectStream(): Buffer {
  const header = "6 0 ".repeat(50_000);
  const data = deflateSync(Buffer.from(`${header}%${"a".repeat(1_000_000)}\n0`, "latin1"), { level: 9 });
  const stream = `<< /Type /ObjStm /N 50000 /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data.toString("latin1")}\nendstream`;
  return written(["<< /Type /Catalog /Pages 2 0 R >>", ...PAGES, stream]);
}

describe("pdf-lib's own reading costs what the file's size does", () => {
  // The walk's steps never saw how often pdf-lib read the same bytes: these files kept a check process busy until
  // its deadline (10 s), and the 20 KB one was taken after 8 s. Each is refused as soon as its parse has read
  // what it was given a few times over.
  it("refuses a 1.7 KB object stream read 50,000 times, and stray text before 200,000 spaces, long before the deadline", async () => {
    const stray = Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\nx${" ".repeat(200_000)}1\n`, "latin1");
    for (const file of [rereadObjectStream(), stray]) {
      const started = performance.now();
      expect(await detectType(saved(file), "attachment", "cv.pdf")).toBe("activePdf");
      expect(performance.now() - started).toBeLessThan(FILE_CHECK_DEADLINE_MS.detect / 4);
    }
  });

  it("checks a visitor's plain PDF at once while six such files wait their turn (it waited 35 s)", async () => {
    const hostile = saved(rereadObjectStream());
    const started = performance.now();
    const queued = Array.from({ length: 6 }, () => detectType(hostile, "attachment", "cv.pdf"));
    expect(await detectType(saved(doublingChain(3)), "attachment", "cv.pdf")).toEqual({ ext: "pdf", mime: "application/pdf" });
    expect(performance.now() - started).toBeLessThan(FILE_CHECK_DEADLINE_MS.detect / 2);
    expect(await Promise.all(queued)).toEqual(Array(6).fill("activePdf"));
  });
});

/**
 * A DOCX with a part of `depth` nested elements: a parser that recursed would run out of stack. (Under 1 MB
 * inflated, so the zip-bomb ratio does not refuse it first.)
 */
function nestedDocx(depth: number): Buffer {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${"<w:p>".repeat(depth)}<w:r><w:t>Ravi Kumar CV</w:t></w:r>${"</w:p>".repeat(depth)}</w:hdr>`;
  return docx([{ name: "word/header1.xml", data: Buffer.from(xml) }]);
}

describe("a real server answers /healthz within a second while it checks hostile files", () => {
  const server = startApiServer();

  async function postEnquiry(filename: string, data: Buffer, type: string): Promise<string> {
    const body = new FormData();
    const fields = {
      fullName: "Ravi Kumar",
      email: "ravi@example.com",
      phone: "98765 43210",
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
    };
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    body.append("filePaths", new Blob([new Uint8Array(data)], { type }), filename);
    const res = await fetch(`${server.url}/enquiry`, { method: "POST", body });
    return res.text();
  }

  it("takes the two reviewer's PDFs and an 80,000-deep DOCX without a slow /healthz", async () => {
    const slowest: number[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const started = performance.now();
        const res = await fetch(`${server.url}/healthz`);
        await res.text();
        slowest.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const annots = Array.from({ length: 300 }, () => "<< /Subtype /Link /Rect [0 0 1 1] /AA << /E 5 0 R >> >>").join(" ");
    const pages = await Promise.all([
      postEnquiry("chain-20.pdf", doublingChain(20, "<< /S /URI /URI (http://203.0.113.9/) >>"), "application/pdf"),
      postEnquiry("chain-40.pdf", doublingChain(40), "application/pdf"),
      postEnquiry("repeat.pdf", redefined(40_000), "application/pdf"),
      postEnquiry("budget.pdf", redefined(40_000, "<< /S /GoTo /D [3 0 R /Fit] >>", `/Annots [${annots}]`), "application/pdf"),
      postEnquiry("nested.docx", nestedDocx(80_000), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ]);
    polling = false;
    await poll;
    // Refused with the plain-PDF message: the chain that ends in a web address, and the file over its budget.
    expect(pages[0]).toContain(ACTIVE_PDF_MESSAGES.attachment.slice(0, 40));
    expect(pages[3]).toContain(ACTIVE_PDF_MESSAGES.attachment.slice(0, 40));
    // Taken: the long plain chain, the redefined object, the deep but harmless document.
    for (const page of [pages[1], pages[2], pages[4]]) {
      expect(page).toContain("Registration Successful!");
      expect(page).not.toContain(ACTIVE_PDF_MESSAGES.attachment.slice(0, 40));
      expect(page).not.toContain(ENQUIRY_FILE_TYPE_MESSAGE);
    }
    expect(slowest.length).toBeGreaterThan(0);
    expect(Math.max(...slowest)).toBeLessThan(1_000);
  });
});
