import fsp from "node:fs/promises";
import { fileTypeFromFile } from "file-type";
import type { Entry } from "yauzl";
import type { UploadKind } from "./uploads.server";

/**
 * What an uploaded file really is, decided from its content (magic bytes, container structure), never
 * from its name or the type the browser declared; and the re-encoding that keeps only an image's pixels.
 */
export const ALLOWED: Record<UploadKind, Record<string, string>> = {
  image: { jpg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp", avif: "image/avif" },
  syllabus: {
    pdf: "application/pdf",
    docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    doc: "application/msword",
  },
  attachment: {
    pdf: "application/pdf",
    docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    doc: "application/msword",
    jpg: "image/jpeg",
    png: "image/png",
  },
};

/** The file's real type when it is one this kind of upload accepts (a DOCX only when checkDocx passes), else null. */
export async function detectType(file: string, kind: UploadKind, originalName: string): Promise<{ ext: string; mime: string } | null> {
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  if (!detected) return null;
  let ext: string = detected.ext;
  // Legacy .doc files are OLE compound files; file-type reports the container ("cfb"). Accept it only under a .doc name.
  if (ext === "cfb") {
    if (!/\.doc$/i.test(originalName) || !(await isWordBinary(file))) return null;
    ext = "doc";
  }
  const mime = ALLOWED[kind][ext];
  if (!mime) return null;
  if (ext === "docx" && !(await checkDocx(file))) return null;
  return { ext, mime };
}

// "WordDocument" in UTF-16LE: the stream every Word 97-2003 file has, and other compound files (MSI installers,
// Excel, Outlook messages) do not.
const WORD_STREAM = Buffer.from("WordDocument", "utf16le");

async function isWordBinary(file: string): Promise<boolean> {
  const data = await fsp.readFile(file);
  return data.includes(WORD_STREAM);
}

/**
 * Course images: resized and re-encoded to WebP. Attachment photos: re-encoded in their own format at their
 * own size. Either way only pixels survive: metadata (location, camera) and anything appended after the image
 * data (an HTML or script polyglot) are dropped. limitInputPixels refuses decompression bombs.
 */
export async function reencodeImage(source: string, target: string, kind: UploadKind, ext: string): Promise<number> {
  const { default: sharp } = await import("sharp");
  const image = sharp(source, { animated: kind === "image", limitInputPixels: 50_000_000 }).rotate();
  if (kind === "image") {
    const info = await image.resize({ width: 1600, height: 1600, fit: "inside", withoutEnlargement: true }).webp({ quality: 80 }).toFile(target);
    return info.size;
  }
  const info = await (ext === "png" ? image.png() : image.jpeg({ quality: 90, mozjpeg: true })).toFile(target);
  return info.size;
}

/** Zip-bomb guards: a Word document has a few hundred parts and its text compresses perhaps 20:1. */
export const DOCX_LIMITS = { maxEntries: 1000, maxTotalBytes: 100 * 1024 * 1024, maxRatio: 200, ratioFloorBytes: 1024 * 1024 };

/**
 * A DOCX must be a well-formed ZIP with a Word document part and no macros, within the limits above.
 * Every part is inflated (and counted) rather than trusting the sizes the archive declares.
 */
export async function checkDocx(file: string): Promise<boolean> {
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
        if (entries > DOCX_LIMITS.maxEntries || /(^|\/)vbaProject\.bin$/i.test(name) || entry.isEncrypted()) return done(false, zip);
        if (name.endsWith("/")) return zip.readEntry();
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return done(false, zip);
          let inflated = 0;
          stream.on("data", (chunk: Buffer) => {
            inflated += chunk.length;
            total += chunk.length;
            const ratio = inflated / Math.max(1, entry.compressedSize);
            if (total > DOCX_LIMITS.maxTotalBytes || (inflated > DOCX_LIMITS.ratioFloorBytes && ratio > DOCX_LIMITS.maxRatio)) {
              stream.destroy();
              done(false, zip);
            }
          });
          stream.on("error", () => done(false, zip));
          stream.on("end", () => {
            if (!settled) zip.readEntry();
          });
        });
      });
      zip.on("end", () => done(hasDocument && hasContentTypes));
      zip.on("error", () => done(false, zip));
      zip.readEntry();
    });
  });
}
