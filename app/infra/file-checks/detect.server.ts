import { fileTypeFromFile } from "file-type";
import type { Entry } from "yauzl";
import { MEDIA_TYPES } from "~/schemas/upload-media-types";
import { UPLOAD_KINDS, UPLOAD_TYPES, type UploadKind } from "~/schemas/uploads";
import type { StepBudget } from "./budget.server";
import type { Detected } from "./jobs.server";
import {
  fieldInstructionRefused,
  isInspectedPart,
  MAX_INSPECTED_PART_BYTES,
  partContentRefused,
  partNameRefused,
  scanPart,
  type DocxPolicy,
} from "./docx-parts.server";
import { pdfActiveContent } from "./pdf-active-content.server";
import { inspectWordBinary } from "./word-binary.server";

/**
 * What an uploaded file really is, decided from its content (magic bytes, container structure), never from its
 * name or the type the browser declared. Runs in the file-check process (index.server.ts), under its budget.
 */
const ALLOWED = Object.fromEntries(UPLOAD_KINDS.map((kind) => [kind, Object.fromEntries(UPLOAD_TYPES[kind].map((t) => [t, MEDIA_TYPES[t]]))])) as Record<
  UploadKind,
  Record<string, string>
>;

/**
 * Syllabus files are downloaded by the public, enquiry attachments opened by staff: neither may carry macros
 * or load a template or object from elsewhere; attachments, from anonymous visitors, no embedded objects either.
 */
function officePolicy(kind: UploadKind): DocxPolicy {
  return { refuseEmbedded: kind === "attachment" };
}

/**
 * The file's real type when it is one this kind of upload accepts (a DOC or DOCX only when its checks pass), else
 * null; "activePdf" for a PDF that is one but runs or fetches something by itself (its own message says so).
 */
export async function detectFileType(
  file: string,
  kind: UploadKind,
  originalName: string,
  steps: StepBudget,
  /** Told the type the first bytes claim, before the costly checks: a check cut short is refused as that type. */
  claimed: (ext: string) => void = () => {},
): Promise<Detected> {
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  if (!detected) return null;
  let ext: string = detected.ext;
  claimed(ext);
  // Legacy .doc files are OLE compound files; file-type reports the container ("cfb"). Accept it only under a .doc name.
  if (ext === "cfb") {
    if (!/\.doc$/i.test(originalName) || !ALLOWED[kind].doc) return null;
    if (!(await checkWordBinary(file, officePolicy(kind), steps))) return null;
    ext = "doc";
  }
  const mime = ALLOWED[kind][ext];
  if (!mime) return null;
  if (ext === "docx" && !(await checkDocx(file, officePolicy(kind), steps))) return null;
  if (ext === "pdf") {
    // Enquiry attachments (anonymous) and syllabus files (downloaded by anyone) alike: neither needs scripts,
    // embedded files or actions that fire on opening, and a staff account that uploads one may not be staff.
    const verdict = await pdfActiveContent(file, steps);
    if (verdict !== "plain") return "activePdf";
  }
  return { ext, mime };
}

/**
 * A Word 97-2003 file: a compound file with a WordDocument stream, no VBA project, (attachments) no OLE objects,
 * and only the fields a DOCX may hold (the same allow-list, read from the document's text).
 */
export async function checkWordBinary(file: string, policy: DocxPolicy, steps: StepBudget): Promise<boolean> {
  const doc = await inspectWordBinary(file, steps);
  if (!doc || !doc.word || doc.macros || (policy.refuseEmbedded && doc.objects)) return false;
  const fields = doc.fields;
  return !fields || (!fields.nestedName && !fields.tooLong && !fields.codes.some((code) => fieldInstructionRefused(code, policy)));
}

/** Zip-bomb guards: a Word document has a few hundred parts and its text compresses perhaps 20:1. */
export const DOCX_LIMITS = { maxEntries: 1000, maxTotalBytes: 100 * 1024 * 1024, maxRatio: 200, ratioFloorBytes: 1024 * 1024 };

/**
 * A DOCX must be a well-formed ZIP with a Word document part, within the limits above, and pass the policy
 * (docx-parts.server.ts). Every part is inflated (and counted) rather than trusting the sizes the archive
 * declares; the content-type and relationship parts are kept while they inflate and read at their end, and
 * every part goes through a scanner as it inflates (fields and altChunk may sit in any XML part, of any size).
 */
export async function checkDocx(file: string, policy: DocxPolicy, steps: StepBudget): Promise<boolean> {
  const { default: yauzl } = await import("yauzl");
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok: boolean, zip?: { close(): void }) => {
      if (settled) return;
      settled = true;
      try {
        zip?.close();
      } catch {
        // already closed
      }
      resolve(ok);
    };
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) => {
      if (err || !zip) return done(false);
      let entries = 0;
      let total = 0;
      let hasDocument = false;
      let hasContentTypes = false;
      zip.on("entry", (entry: Entry) => {
        entries++;
        try {
          steps.spend();
        } catch {
          return done(false, zip);
        }
        const name = entry.fileName;
        if (name === "word/document.xml") hasDocument = true;
        if (name === "[Content_Types].xml") hasContentTypes = true;
        if (entries > DOCX_LIMITS.maxEntries || partNameRefused(name, policy) || entry.isEncrypted()) return done(false, zip);
        if (name.endsWith("/")) return zip.readEntry();
        const kept: Buffer[] | null = isInspectedPart(name) ? [] : null;
        const scanner = scanPart(policy);
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return done(false, zip);
          let inflated = 0;
          stream.on("data", (chunk: Buffer) => {
            try {
              // A step per 4 KiB read: the scanner's work follows the bytes it is given.
              steps.spend(1 + (chunk.length >> 12));
            } catch {
              stream.destroy();
              done(false, zip);
              return;
            }
            inflated += chunk.length;
            total += chunk.length;
            const ratio = inflated / Math.max(1, entry.compressedSize);
            const tooBig = kept && inflated > MAX_INSPECTED_PART_BYTES;
            if (tooBig || total > DOCX_LIMITS.maxTotalBytes || (inflated > DOCX_LIMITS.ratioFloorBytes && ratio > DOCX_LIMITS.maxRatio)) {
              stream.destroy();
              done(false, zip);
              return;
            }
            if (scanner.write(chunk)) {
              stream.destroy();
              done(false, zip);
              return;
            }
            kept?.push(chunk);
          });
          stream.on("error", () => done(false, zip));
          stream.on("end", () => {
            if (settled) return;
            if (scanner.end()) return done(false, zip);
            if (kept && partContentRefused(name, Buffer.concat(kept), policy)) return done(false, zip);
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => done(hasDocument && hasContentTypes));
      zip.on("error", () => done(false, zip));
      zip.readEntry();
    });
  });
}
