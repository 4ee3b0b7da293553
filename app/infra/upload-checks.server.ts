import { fileTypeFromFile } from "file-type";
import pLimit from "p-limit";
import type Sharp from "sharp";
import type { Entry } from "yauzl";
import {
  fieldInstructionRefused,
  isInspectedPart,
  MAX_INSPECTED_PART_BYTES,
  partContentRefused,
  partNameRefused,
  scanPart,
  type DocxPolicy,
} from "./docx-parts.server";
import { UPLOAD_KINDS, UPLOAD_TYPES, type FileType, type UploadKind } from "~/schemas/uploads";
import { inspectWordBinary } from "./word-binary.server";
import { pdfActiveContent } from "./pdf-active-content.server";

/**
 * What an uploaded file really is, decided from its content (magic bytes, container structure), never
 * from its name or the type the browser declared; and the re-encoding that keeps only an image's pixels.
 */
/** The media type each accepted file type is stored and served as. */
export const MEDIA_TYPES: Record<FileType, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/** The media type of each file type an upload kind takes: { jpg: "image/jpeg", … }. */
export function mediaTypes(kind: UploadKind): Record<string, string> {
  return Object.fromEntries(UPLOAD_TYPES[kind].map((t) => [t, MEDIA_TYPES[t]]));
}

const ALLOWED = Object.fromEntries(UPLOAD_KINDS.map((kind) => [kind, mediaTypes(kind)])) as Record<UploadKind, Record<string, string>>;

/**
 * Decoding images, parsing Word files and inflating archives is the costly part of an upload, and anyone may
 * post enquiry attachments: at most two such jobs run at a time in this process, the rest wait their turn, so
 * a flood of uploads queues up instead of taking every core from the pages.
 */
export const UPLOAD_WORK_CONCURRENCY = 2;
const uploadWork = pLimit(UPLOAD_WORK_CONCURRENCY);

/**
 * Runs a job in its turn, unless the request it is for has ended by then: a visitor who gave up (or a
 * connection the server closed while it waited) leaves nothing behind in the queue to decode.
 */
function inTurn<T>(signal: AbortSignal | undefined, job: () => Promise<T>): Promise<T> {
  return uploadWork(() => {
    signal?.throwIfAborted();
    return job();
  });
}

/** Jobs running and waiting now (for the logs, and for tests of the queue). */
export function uploadWorkLoad(): { running: number; waiting: number } {
  return { running: uploadWork.activeCount, waiting: uploadWork.pendingCount };
}

/** Course images come from staff; attachments from anyone, so the anonymous path gets half the pixels. */
export const IMAGE_MAX_PIXELS = 50_000_000;
export const ATTACHMENT_MAX_PIXELS = 25_000_000;

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
export async function detectType(
  file: string,
  kind: UploadKind,
  originalName: string,
  signal?: AbortSignal,
): Promise<{ ext: string; mime: string } | "activePdf" | null> {
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  if (!detected) return null;
  let ext: string = detected.ext;
  // Legacy .doc files are OLE compound files; file-type reports the container ("cfb"). Accept it only under a .doc name.
  if (ext === "cfb") {
    if (!/\.doc$/i.test(originalName) || !ALLOWED[kind].doc) return null;
    if (!(await inTurn(signal, () => checkWordBinary(file, officePolicy(kind))))) return null;
    ext = "doc";
  }
  const mime = ALLOWED[kind][ext];
  if (!mime) return null;
  if (ext === "docx" && !(await inTurn(signal, () => checkDocx(file, officePolicy(kind))))) return null;
  if (ext === "pdf") {
    // Enquiry attachments (anonymous) and syllabus files (downloaded by anyone) alike: neither needs scripts,
    // embedded files or actions that fire on opening, and a staff account that uploads one may not be staff.
    const verdict = await inTurn(signal, () => pdfActiveContent(file));
    if (verdict !== "plain") return "activePdf";
  }
  return { ext, mime };
}

/**
 * A Word 97-2003 file: a compound file with a WordDocument stream, no VBA project, (attachments) no OLE objects,
 * and only the fields a DOCX may hold (the same allow-list, read from the document's text).
 */
export async function checkWordBinary(file: string, policy: DocxPolicy): Promise<boolean> {
  const doc = await inspectWordBinary(file);
  if (!doc || !doc.word || doc.macros || (policy.refuseEmbedded && doc.objects)) return false;
  const fields = doc.fields;
  return !fields || (!fields.nestedName && !fields.tooLong && !fields.codes.some((code) => fieldInstructionRefused(code, policy)));
}

/**
 * Course images: resized and re-encoded to WebP. Attachment photos: re-encoded in their own format at their
 * own size. Either way only pixels survive: metadata (location, camera) and anything appended after the image
 * data (an HTML or script polyglot) are dropped. limitInputPixels refuses decompression bombs (and, for
 * attachments, any photo large enough to keep a core busy for seconds) from the header, before decoding.
 */
export async function reencodeImage(source: string, target: string, kind: UploadKind, ext: string, signal?: AbortSignal): Promise<number> {
  return inTurn(signal, async () => {
    const sharp = await loadSharp();
    const image = sharp(source, { animated: kind === "image", limitInputPixels: kind === "attachment" ? ATTACHMENT_MAX_PIXELS : IMAGE_MAX_PIXELS }).rotate();
    if (kind === "image") {
      const info = await image.resize({ width: 1600, height: 1600, fit: "inside", withoutEnlargement: true }).webp({ quality: 80 }).toFile(target);
      return info.size;
    }
    const info = await (ext === "png" ? image.png() : image.jpeg({ quality: 90, mozjpeg: true })).toFile(target);
    return info.size;
  });
}

let sharpModule: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded when first needed, with one libvips thread per image (its default is one per core): with two
 * jobs at a time, image work then takes at most two threads. Measured with scripts/bench-upload-flood.ts
 * (40 posts of three 24-megapixel photos, 2 cores): as many posts finished, and the home page's slowest
 * answers during the flood came in 150-170 ms instead of 310-780 ms.
 */
async function loadSharp(): Promise<typeof Sharp> {
  sharpModule ??= import("sharp").then(({ default: sharp }) => {
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

/** Zip-bomb guards: a Word document has a few hundred parts and its text compresses perhaps 20:1. */
export const DOCX_LIMITS = { maxEntries: 1000, maxTotalBytes: 100 * 1024 * 1024, maxRatio: 200, ratioFloorBytes: 1024 * 1024 };

/**
 * A DOCX must be a well-formed ZIP with a Word document part, within the limits above, and pass the policy
 * (docx-parts.server.ts). Every part is inflated (and counted) rather than trusting the sizes the archive
 * declares; the content-type and relationship parts are kept while they inflate and read at their end, and
 * every part goes through a scanner as it inflates (fields and altChunk may sit in any XML part, of any size).
 */
export async function checkDocx(file: string, policy: DocxPolicy): Promise<boolean> {
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
