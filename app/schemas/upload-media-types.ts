import { UPLOAD_TYPES, type FileType, type UploadKind } from "./uploads";

/** The media type each accepted file type is stored and served as (apart from uploads.ts, which the public form's code loads). */
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
