import path from "node:path";
import { Readable } from "node:stream";
import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin.enquiries.$id_.files.$name";
import { fileStore } from "~/infra/file-store.server";
import { attachmentDisplayName, attachmentKey } from "~/infra/uploads.server";
import { getEnquiry } from "~/models/enquiry.server";

const TYPES: Record<string, string> = {
  ".pdf": "application/pdf",
  ".doc": "application/msword",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
};

function notFound() {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
}

/**
 * An enquiry's attached file, for staff only (DESIGN.md §4.9). Uploads live outside the public static
 * folders; this route checks the session and that the file belongs to this enquiry, then streams it as a
 * download that the browser must not render or sniff.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const enquiry = await getEnquiry(params.id);
  if (!enquiry || !enquiry.filePaths.includes(params.name)) return notFound();
  const key = attachmentKey(params.name);
  const file = key ? await fileStore().get(key) : null;
  if (!file) return notFound();

  const name = attachmentDisplayName(params.name);
  const asciiName = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const body = Readable.toWeb(file.body) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "Content-Type": TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream",
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
