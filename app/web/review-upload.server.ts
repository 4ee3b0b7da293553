import { IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE } from "~/schemas/course";
import type { ReviewPhoto } from "~/services/reviews.server";
import { BadMultipartError, isMultipart, parseMultipart, RequestTooLargeError, type UploadRule } from "~/infra/uploads.server";
import { formToObject, safeBody } from "./api-body.server";

/** The review form's photo: an image like a course image (checked by content, stored as WebP, under 5 MB). */
const REVIEW_PHOTO_RULE: UploadRule = {
  field: "photo",
  kind: "image",
  maxBytes: IMAGE_MAX_BYTES,
  sizeMessage: IMAGE_SIZE_MESSAGE,
  typeMessage: IMAGE_TYPE_MESSAGE,
};

/**
 * The Add/Edit Review form's post: its FormData (for conform's replies), the text fields, and the photo streamed
 * to disk and checked, if one was chosen. A plain (urlencoded) post has no photo.
 */
export async function receiveReviewForm(request: Request): Promise<{ form: FormData; fields: Record<string, unknown>; photo: ReviewPhoto }> {
  if (!isMultipart(request)) {
    const form = await request.formData();
    return { form, fields: formToObject(form), photo: {} };
  }
  try {
    const { formData, files, errors } = await parseMultipart(safeBody(request), [REVIEW_PHOTO_RULE], { maxBytes: IMAGE_MAX_BYTES + 1024 * 1024 });
    return { form: formData, fields: formToObject(formData), photo: { file: files.find((f) => f.field === "photo"), error: errors.photo } };
  } catch (error) {
    // Too large or unreadable as a whole: the form again with the reason on the photo.
    if (error instanceof RequestTooLargeError || error instanceof BadMultipartError)
      return { form: new FormData(), fields: {}, photo: { error: error.message } };
    throw error;
  }
}
