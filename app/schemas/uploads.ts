/**
 * The files each upload takes, defined once: the server's content check (app/infra/upload-checks.server.ts), the
 * file inputs' accept lists, the hints under them, the browser's early check and the OpenAPI document are all
 * built from this list, so a hint cannot say "PNG, JPG or GIF" while the server also takes WebP and AVIF.
 */
export const UPLOAD_KINDS = ["image", "syllabus", "attachment"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

type FileType = { ext: string; mime: string; label: string; extensions: readonly string[] };

const JPG: FileType = { ext: "jpg", mime: "image/jpeg", label: "JPG", extensions: [".jpg", ".jpeg"] };
const PNG: FileType = { ext: "png", mime: "image/png", label: "PNG", extensions: [".png"] };
const GIF: FileType = { ext: "gif", mime: "image/gif", label: "GIF", extensions: [".gif"] };
const WEBP: FileType = { ext: "webp", mime: "image/webp", label: "WebP", extensions: [".webp"] };
const AVIF: FileType = { ext: "avif", mime: "image/avif", label: "AVIF", extensions: [".avif"] };
const PDF: FileType = { ext: "pdf", mime: "application/pdf", label: "PDF", extensions: [".pdf"] };
const DOC: FileType = { ext: "doc", mime: "application/msword", label: "DOC", extensions: [".doc"] };
const DOCX: FileType = { ext: "docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", label: "DOCX", extensions: [".docx"] };

export const UPLOAD_TYPES: Record<UploadKind, readonly FileType[]> = {
  image: [JPG, PNG, GIF, WEBP, AVIF],
  syllabus: [PDF, DOC, DOCX],
  attachment: [PDF, DOC, DOCX, JPG, PNG],
};

/** The media type of each file extension an upload kind takes: { jpg: "image/jpeg", … }. */
export function mediaTypes(kind: UploadKind): Record<string, string> {
  return Object.fromEntries(UPLOAD_TYPES[kind].map((t) => [t.ext, t.mime]));
}

/** For a file input's accept attribute: the extensions and the media types. */
export function acceptList(kind: UploadKind): string {
  const types = UPLOAD_TYPES[kind];
  return [...types.flatMap((t) => t.extensions), ...new Set(types.map((t) => t.mime))].join(",");
}

/** "JPG, PNG, GIF, WebP or AVIF", for hints. */
export function typeNames(kind: UploadKind): string {
  const labels = UPLOAD_TYPES[kind].map((t) => t.label);
  return labels.length > 1 ? `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)}` : labels.join("");
}

/** The browser's early check of a chosen file, by its name or declared type (the server checks the content). */
export function looksAccepted(kind: UploadKind, file: { name: string; type?: string }): boolean {
  const name = file.name.toLowerCase();
  return UPLOAD_TYPES[kind].some((t) => t.extensions.some((e) => name.endsWith(e)) || (file.type !== undefined && file.type === t.mime));
}
