import type { Route } from "./+types/admin.courses.syllabus-image";
import { BadMultipartError, discardUploads, parseMultipart, RequestTooLargeError } from "~/infra/uploads.server";
import { COURSE_IMAGE_RULE } from "~/web/course-upload.server";
import { readUserSession } from "~/web/session.server";
import { IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE } from "~/schemas/course";

/**
 * Images inserted in the syllabus editor: stored like course images (checked by content, re-encoded to
 * WebP) and answered with their URL, so the syllabus Markdown holds a link and never inline base64.
 */
export async function action({ request }: Route.ActionArgs) {
  if (!(await readUserSession(request))) return Response.json({ error: "Your session has ended. Please sign in again." }, { status: 401 });
  try {
    const { files, errors } = await parseMultipart(request, [COURSE_IMAGE_RULE], { maxBytes: IMAGE_MAX_BYTES + 64 * 1024 });
    const image = files.find((f) => f.field === "image");
    if (errors.image || !image?.url) {
      await discardUploads(files);
      return Response.json({ error: errors.image ?? IMAGE_TYPE_MESSAGE }, { status: errors.image === IMAGE_SIZE_MESSAGE ? 413 : 415 });
    }
    return Response.json({ url: image.url }, { status: 201 });
  } catch (error) {
    if (error instanceof RequestTooLargeError) return Response.json({ error: IMAGE_SIZE_MESSAGE }, { status: 413 });
    if (error instanceof BadMultipartError) return Response.json({ error: IMAGE_TYPE_MESSAGE }, { status: 400 });
    throw error;
  }
}

export async function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
