/**
 * The files each upload takes, defined once: the server's content check (app/schemas/upload-media-types.ts adds
 * each type's media type), the file inputs' accept lists, the hints under them, the browser's early check and the
 * OpenAPI document are all built from this list, so a hint cannot say "PNG, JPG or GIF" while the server also
 * takes WebP and AVIF. Kept small: it is part of the public enquiry form's code.
 */
export const UPLOAD_KINDS = ["image", "syllabus", "attachment"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Each file type: its name in hints, then the endings a file name may have. */
const FILE_TYPES = {
  jpg: ["JPG", ".jpg", ".jpeg"],
  png: ["PNG", ".png"],
  gif: ["GIF", ".gif"],
  webp: ["WebP", ".webp"],
  avif: ["AVIF", ".avif"],
  pdf: ["PDF", ".pdf"],
  doc: ["DOC", ".doc"],
  docx: ["DOCX", ".docx"],
} as const;
export type FileType = keyof typeof FILE_TYPES;

export const UPLOAD_TYPES: Record<UploadKind, readonly FileType[]> = {
  image: ["jpg", "png", "gif", "webp", "avif"],
  syllabus: ["pdf", "doc", "docx"],
  attachment: ["pdf", "doc", "docx", "jpg", "png"],
};

const endings = (kind: UploadKind) => UPLOAD_TYPES[kind].flatMap((t) => FILE_TYPES[t].slice(1));

/** For a file input's accept attribute: the file name endings. */
export const acceptList = (kind: UploadKind): string => endings(kind).join(",");

/** "JPG, PNG, GIF, WebP or AVIF", for hints. */
export function typeNames(kind: UploadKind): string {
  const names = UPLOAD_TYPES[kind].map((t) => FILE_TYPES[t][0]);
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** The browser's early check of a chosen file, by its name, or an image by its declared type (the server checks the content). */
export function looksAccepted(kind: UploadKind, file: { name: string; type?: string }): boolean {
  const name = file.name.toLowerCase();
  const image = /^image\/(\w+)$/.exec(file.type ?? "")?.[1]?.replace("jpeg", "jpg");
  return endings(kind).some((e) => name.endsWith(e)) || UPLOAD_TYPES[kind].some((t) => t === image);
}

/**
 * A PDF that would run or fetch something by itself when opened (scripts, actions that start a program, open
 * another file or a web address, send a form, embedded files): app/infra/file-checks/pdf-active-content.server.ts.
 */
export const ACTIVE_PDF_MESSAGES: Record<"attachment" | "syllabus", string> = {
  attachment: "This PDF contains scripts, attached files or links that open by themselves. Please attach a plain PDF instead (print or save it as PDF again).",
  syllabus: "This PDF contains scripts, attached files or links that open by themselves. Please upload a plain PDF instead (print or save it as PDF again).",
};
