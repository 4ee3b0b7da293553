import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { env } from "~/env.server";
import { mkdirOwnerOnly, OWNER_FILE_MODE } from "~/util/owner-only-files.server";
import { fileStore } from "./file-store.server";
import { ENQUIRY_ATTACHMENTS_FULL_MESSAGE } from "~/schemas/enquiry";
import { noteAttachmentsRemoved, reserveAttachmentSpace, type AttachmentSpace } from "./attachment-quota.server";
import { detectType, reencodeImage } from "./file-checks/index.server";
import { ACTIVE_PDF_MESSAGES, type UploadKind } from "~/schemas/uploads";

/**
 * Streams multipart uploads to disk (never whole in memory), decides each file's type from its content,
 * and moves accepted files to server-chosen random names under UPLOAD_DIR:
 *   images/     course images, re-encoded to WebP (metadata stripped), served at /media/images/
 *   syllabus/   syllabus files, served at /media/syllabus/ as downloads
 *   enquiries/  enquiry attachments, served to staff only through the admin routes
 *   tmp/        parts being received
 */

export type UploadRule = {
  /** Form field name, e.g. "image", "syllabusFile", "attachments". */
  field: string;
  kind: UploadKind;
  maxBytes: number;
  maxFiles?: number;
  sizeMessage: string;
  typeMessage: string;
  countMessage?: string;
};

export type StoredUpload = {
  field: string;
  kind: UploadKind;
  /** The name the visitor's file had, cleaned for display. */
  originalName: string;
  /** The random name it is stored under. */
  storedName: string;
  /** Public URL for images and syllabus files; null for enquiry attachments. */
  url: string | null;
  mime: string;
  size: number;
  /** Its key in the file store (app/infra/file-store.server.ts), e.g. "images/<name>.webp". */
  key: string;
};

/**
 * "quota": the enquiry attachment folder is full (attachment-quota.server.ts); nothing wrong with the file.
 * "active": a PDF with scripts, embedded files or actions that fire by themselves (file-checks/pdf-active-content.server.ts).
 */
export type UploadErrorKind = "size" | "type" | "count" | "quota" | "active";

export type MultipartResult = {
  /** Every text field, in order (repeated names such as highlights[0] kept). */
  formData: FormData;
  files: StoredUpload[];
  /** One message per field that had a refused file (spec §5 texts). */
  errors: Record<string, string>;
  errorKinds: Record<string, UploadErrorKind>;
  /** Fields that got a file where no file is taken (drained unread), for a caller that refuses them. */
  unexpectedFiles: string[];
};

export class RequestTooLargeError extends Error {
  status = 413;
  constructor() {
    super("The upload is too large");
  }
}

export class BadMultipartError extends Error {
  status = 400;
  constructor(message = "The form data could not be read") {
    super(message);
  }
}

const DIR: Record<UploadKind, string> = { image: "images", syllabus: "syllabus", attachment: "enquiries" };
const URL_PREFIX: Record<UploadKind, string | null> = { image: "/media/images/", syllabus: "/media/syllabus/", attachment: null };

/** A whole multipart body may not exceed this, whatever its parts (a 413 beyond it). */
export const MAX_MULTIPART_BYTES = 25 * 1024 * 1024;
/** Any other body (a form, JSON, a multipart body on a route that takes no files) may not exceed this. */
export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_FIELDS = 300;

/** Local scratch space for parts being received and checked (image decoding and Word checks need a file). */
export function uploadTmpDir(): string {
  return path.join(path.resolve(env().UPLOAD_DIR), "tmp");
}

function randomName(): string {
  return randomBytes(16).toString("hex");
}

/** A display-safe file name: no path, no control characters, at most 100 characters. */
export function cleanFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, "/"));
  const cleaned = base
    .replace(/[^\w.\- ()]+/g, "_")
    .replace(/^\.+/, "")
    .trim();
  return (cleaned || "file").slice(-100);
}

export function isMultipart(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

type Pending = { rule: UploadRule; tmp: string; originalName: string; size: number; tooBig: boolean };

/**
 * Parses a multipart request. Files for fields without a rule are discarded unread.
 * Throws RequestTooLargeError (413) when the whole body passes MAX_MULTIPART_BYTES,
 * BadMultipartError (400) when the body is not readable multipart.
 */
export async function parseMultipart(request: Request, rules: UploadRule[], opts: { maxBytes?: number } = {}): Promise<MultipartResult> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const maxBytes = opts.maxBytes ?? MAX_MULTIPART_BYTES;
  if (declared > maxBytes) throw new RequestTooLargeError();
  if (!request.body) throw new BadMultipartError();

  await mkdirOwnerOnly(uploadTmpDir());
  const formData = new FormData();
  const pending: Pending[] = [];
  const errors: Record<string, string> = {};
  const errorKinds: Record<string, UploadErrorKind> = {};
  const counts = new Map<string, number>();
  const unexpectedFiles: string[] = [];
  const writes: Promise<void>[] = [];
  const byField = new Map(rules.map((r) => [r.field, r]));
  const largest = Math.max(0, ...rules.map((r) => r.maxBytes));

  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: Object.fromEntries(request.headers),
      limits: { fileSize: largest + 1, fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS, files: 20, parts: MAX_FIELDS + 20 },
      defParamCharset: "utf8",
    });
  } catch {
    throw new BadMultipartError();
  }

  const fail = (rule: UploadRule, kind: UploadErrorKind, message: string) => {
    errors[rule.field] ??= message;
    errorKinds[rule.field] ??= kind;
  };

  bb.on("field", (name, value, info) => {
    if (info.valueTruncated) {
      bb.destroy(new BadMultipartError(`The field ${name} is too long`));
      return;
    }
    formData.append(name, value);
  });

  bb.on("file", (name, stream, info) => {
    // A part still streaming when the body is cut off is destroyed with that error; a part we only drain
    // has no pipeline listening, and an unheard 'error' would take the whole process down.
    stream.on("error", () => undefined);
    const rule = byField.get(name);
    // Browsers send an empty part named "" when no file was chosen.
    if (!rule || !info.filename) {
      if (!rule && info.filename && !unexpectedFiles.includes(name)) unexpectedFiles.push(name);
      stream.resume();
      return;
    }
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    if (count > (rule.maxFiles ?? 1)) {
      fail(rule, "count", rule.countMessage ?? rule.typeMessage);
      stream.resume();
      return;
    }
    const tmp = path.join(uploadTmpDir(), randomName());
    const item: Pending = { rule, tmp, originalName: cleanFileName(info.filename), size: 0, tooBig: false };
    pending.push(item);
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        item.size += chunk.length;
        // The spec's limits are "less than 5MB" / "less than 10MB": a file of exactly the limit is too big.
        if (item.size >= rule.maxBytes) {
          item.tooBig = true;
          cb(); // stop writing; the rest of the part is drained
        } else cb(null, chunk);
      },
    });
    writes.push(pipeline(stream, counter, fs.createWriteStream(tmp, { flags: "wx", mode: OWNER_FILE_MODE })));
  });

  let received = 0;
  const body = Readable.fromWeb(request.body as unknown as NodeWebReadableStream<Uint8Array>);
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      received += chunk.length;
      if (received > maxBytes) cb(new RequestTooLargeError());
      else cb(null, chunk);
    },
  });

  try {
    await pipeline(body, limiter, bb);
    await Promise.all(writes);
  } catch (error) {
    await Promise.allSettled(writes);
    await Promise.all(pending.map((p) => fsp.rm(p.tmp, { force: true })));
    if (error instanceof RequestTooLargeError || error instanceof BadMultipartError) throw error;
    throw new BadMultipartError();
  }

  const space = await reserveAttachments(pending, fail);
  // A save is all or nothing, so once a file is refused (or too many came, or the quota is full) the others
  // need no decoding: their jobs give up when their turn comes, as they do when the visitor has left.
  const doomed = new AbortController();
  const signal = AbortSignal.any([request.signal, doomed.signal]);
  if (Object.keys(errors).length) doomed.abort();
  // A request's files are checked side by side, so they join the upload queue together and a request is done
  // before those that came after it. One by one, every request of a flood would wait behind every other
  // request's first file, and none would finish before its connection timed out.
  const outcomes = await Promise.allSettled(
    pending.map(async (item) => {
      const outcome = await checkAndPlace(item, signal);
      if (typeof outcome === "string") doomed.abort();
      return outcome;
    }),
  );
  const files = outcomes.flatMap((o) => (o.status === "fulfilled" && typeof o.value === "object" ? [o.value] : []));
  space?.settle(attachmentBytes(files));
  await Promise.all(pending.map((p) => fsp.rm(p.tmp, { force: true })));
  const thrown = outcomes.find((o) => o.status === "rejected" && o.reason !== doomed.signal.reason);
  if (thrown?.status === "rejected") {
    await discardUploads(files);
    throw thrown.reason;
  }
  outcomes.forEach((o, i) => {
    const { rule } = pending[i];
    if (o.status === "fulfilled" && o.value === "size") fail(rule, "size", rule.sizeMessage);
    if (o.status === "fulfilled" && o.value === "type") fail(rule, "type", rule.typeMessage);
    if (o.status === "fulfilled" && o.value === "active") fail(rule, "active", activePdfMessage(rule));
  });

  // A save is all or nothing: when any file was refused, keep none of them.
  if (Object.keys(errors).length) {
    await discardUploads(files);
    return { formData, files: [], errors, errorKinds, unexpectedFiles };
  }
  return { formData, files, errors, errorKinds, unexpectedFiles };
}

function activePdfMessage(rule: UploadRule): string {
  return rule.kind === "attachment" ? ACTIVE_PDF_MESSAGES.attachment : ACTIVE_PDF_MESSAGES.syllabus;
}

/** Checks one received file and stores it, or says why it was refused. */
async function checkAndPlace(item: Pending, signal: AbortSignal): Promise<StoredUpload | "size" | "type" | "active"> {
  signal.throwIfAborted();
  if (item.tooBig) return "size";
  if (item.size === 0) return "type";
  const type = await detectType(item.tmp, item.rule.kind, item.originalName, signal);
  if (!type) return "type";
  if (type === "activePdf") return "active";
  try {
    return await place(item, type, signal);
  } catch (error) {
    if (!(error instanceof UploadContentError)) throw error;
    return "type";
  }
}

/**
 * Counts a request's attachments against the quota before any of them is checked, all together: one request
 * keeps all its files or none. Files over the size limit or empty are refused anyway and not counted.
 */
async function reserveAttachments(
  pending: Pending[],
  fail: (rule: UploadRule, kind: UploadErrorKind, message: string) => void,
): Promise<AttachmentSpace | null> {
  const attachments = pending.filter((p) => p.rule.kind === "attachment" && !p.tooBig && p.size > 0);
  if (!attachments.length) return null;
  const space = await reserveAttachmentSpace(
    DIR.attachment,
    attachments.reduce((sum, p) => sum + p.size, 0),
  );
  if (!space) for (const p of attachments) fail(p.rule, "quota", ENQUIRY_ATTACHMENTS_FULL_MESSAGE);
  return space;
}

function attachmentBytes(files: StoredUpload[]): number {
  return files.filter((f) => f.kind === "attachment").reduce((sum, f) => sum + f.size, 0);
}

async function place(item: Pending, type: { ext: string; mime: string }, signal: AbortSignal): Promise<StoredUpload> {
  const { rule } = item;
  const id = randomName();
  const isImage = rule.kind === "image" || type.mime.startsWith("image/");
  const ext = rule.kind === "image" ? "webp" : type.ext;
  const storedName = rule.kind === "attachment" ? `${id}-${item.originalName.replace(/\.[^.]*$/, "")}.${ext}` : `${id}.${ext}`;
  const key = `${DIR[rule.kind]}/${storedName}`;
  let source = item.tmp;
  if (isImage) {
    // Only the pixels go on: the image is re-encoded to a scratch file first, which the store then takes.
    source = `${item.tmp}.out`;
    try {
      await reencodeImage(item.tmp, source, rule.kind, type.ext, signal);
    } catch {
      await fsp.rm(source, { force: true });
      // The request ended (the visitor left, or another of its files was refused) while this image waited or
      // was decoded: say so, whatever the image's own error, so the caller knows nobody needs the answer.
      signal.throwIfAborted();
      throw new UploadContentError(rule);
    }
  }
  const { size } = await fileStore().putFile(key, source);
  const prefix = URL_PREFIX[rule.kind];
  const mime = rule.kind === "image" ? "image/webp" : type.mime;
  return { field: rule.field, kind: rule.kind, originalName: item.originalName, storedName, url: prefix ? `${prefix}${storedName}` : null, mime, size, key };
}

/** An image that claimed to be one by its first bytes but could not be decoded. */
export class UploadContentError extends Error {
  constructor(public rule: UploadRule) {
    super(rule.typeMessage);
  }
}

/** Removes files of a save that failed. */
export async function discardUploads(files: StoredUpload[]): Promise<void> {
  await Promise.all(files.map((f) => fileStore().delete(f.key)));
  noteAttachmentsRemoved(attachmentBytes(files));
}

/** The store key behind a /media/images/ or /media/syllabus/ URL, or null for anything else. */
export function mediaKey(url: string | null | undefined): string | null {
  if (!url) return null;
  const m = /^\/media\/(images|syllabus)\/([a-f0-9]{32}\.[a-z0-9]+)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : null;
}

/** Deletes the stored file behind a media URL (after the row that named it changed). Ignores other URLs. */
export async function deleteMediaUrl(url: string | null | undefined): Promise<void> {
  const key = mediaKey(url);
  if (key) await fileStore().delete(key);
}

/** The store key of an enquiry attachment by its stored name, or null when the name is not one we made. */
export function attachmentKey(storedName: string): string | null {
  if (!/^[a-f0-9]{32}-[\w.\- ()]{1,110}$/.test(storedName) || storedName.includes("..")) return null;
  return `${DIR.attachment}/${storedName}`;
}

export async function deleteAttachments(storedNames: string[]): Promise<void> {
  await Promise.all(
    storedNames.map((n) => {
      const key = attachmentKey(n);
      return key ? fileStore().delete(key) : Promise.resolve();
    }),
  );
}

/** The display name of an attachment: its stored name without the random prefix. */
export function attachmentDisplayName(storedName: string): string {
  return storedName.replace(/^[a-f0-9]{32}-/, "");
}
