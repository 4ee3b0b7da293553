import { inTransaction } from "~db/client.server";
import type { Page } from "~/models/paging.server";
import {
  approveReviewRow,
  deleteReviewRow,
  getReview as getReviewRow,
  insertReview,
  listReviews as listReviewRows,
  updateReviewRow,
  type Review,
  type ReviewFilter,
} from "~/models/review.server";
import { reviewSchema } from "~/schemas/review";
import type { Actor, StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { discardUploads, type StoredUpload } from "~/infra/uploads.server";
import { invalid, notFound } from "./service-error";
import { parseInput } from "./validation";
import { writeGuardSchema } from "~/schemas/write-guard";
import { changedMeanwhile, guardedWrite, type GuardedRecord } from "./write-guard.server";
import { audienceOf, readPublication } from "./publication.server";

/** Student reviews. Visitors see approved and published reviews only (DESIGN.md §4.14); any other does not exist for them. */

function reviewValues(input: unknown) {
  const { state, publishAt, ...values } = parseInput(reviewSchema, input);
  return { ...values, publication: readPublication({ state, publishAt }) };
}

/** The fields the audit log tells about, by their labels on the review form. */
const FIELDS = {
  name: "Student Name",
  position: "Position/Title",
  image: "Profile Image",
  rating: "Rating",
  review: "Review Text",
  course: "Course",
  type: "Review Type",
  videoThumbnail: "Video Thumbnail URL",
  linkedin: "LinkedIn Profile",
  approved: "Approved for display",
  state: "Publication",
  publishAt: "Publish at",
} as const;

export async function listReviews(actor: Actor, filter: ReviewFilter): Promise<Page<Review>> {
  return listReviewRows(audienceOf(actor) === "staff" ? filter : { ...filter, status: undefined, state: undefined, audience: "public" });
}

export async function getReview(actor: Actor, id: string): Promise<Review> {
  const review = await getReviewRow(id, audienceOf(actor));
  if (!review) throw notFound("Review");
  return review;
}

/** A photo chosen in the review form, already stored and checked (app/web/review-upload.server.ts), or why it was refused. */
export type ReviewPhoto = { file?: StoredUpload; error?: string };

/**
 * The review's fields with an uploaded photo as its image (it wins over the URL typed). A refused photo is the
 * image field's error; a failed save removes the photo it stored (nothing half-saved).
 */
async function withPhoto<T>(input: unknown, photo: ReviewPhoto, save: (values: ReturnType<typeof reviewValues>) => Promise<T>): Promise<T> {
  try {
    if (photo.error) throw invalid({ image: photo.error });
    const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
    return await save(reviewValues(photo.file?.url ? { ...fields, image: photo.file.url } : fields));
  } catch (error) {
    if (photo.file) await discardUploads([photo.file]);
    throw error;
  }
}

export async function createReview(actor: StaffActor, input: unknown, photo: ReviewPhoto = {}): Promise<Review> {
  return withPhoto(input, photo, (values) =>
    inTransaction(async () => {
      const review = await insertReview(values, { createdBy: actor.user.name });
      await record(actor, "create", "review", review.id, `${review.name} (${review.course})${review.approved ? ", approved" : ""}`);
      return review;
    }),
  );
}

/** A review under the write rule (write-guard.server.ts): "This review was changed by … at … IST. Here is what it holds now." */
const reviewRecord = (id: string): GuardedRecord<Review> => ({
  thing: "review",
  scope: "review",
  read: () => getReviewRow(id),
  notFoundName: "Review",
  answer: (now) => now,
});

/**
 * Edit Review: refused when drawn from an older version (a colleague's save, an approval, a publish since), with
 * what the review holds now; a repeat of the same form post changes nothing (and keeps no photo it brought).
 */
export async function updateReview(actor: StaffActor, id: string, input: unknown, photo: ReviewPhoto = {}): Promise<Review> {
  const target = reviewRecord(id);
  let repeated = false;
  // A replaced photo is left for the orphan sweep, which removes uploads no row names after a day.
  const saved = await withPhoto(input, photo, (values) =>
    guardedWrite(
      target,
      parseInput(writeGuardSchema, input),
      async (before) => {
        const saved = (await updateReviewRow(id, values, { version: before.version, updatedBy: actor.user.name })) ?? (await changedMeanwhile(target));
        await record(actor, "update", "review", id, changeSummary(before, saved, FIELDS));
        return saved;
      },
      (before) => {
        repeated = true;
        return before;
      },
    ),
  );
  if (repeated && photo.file) await discardUploads([photo.file]);
  return saved;
}

/** Pending becomes approved (spec §4); approving an approved review changes nothing and says so. */
export async function approveReview(actor: StaffActor, id: string): Promise<Review> {
  return inTransaction(async () => {
    const before = await getReviewRow(id);
    if (!before) throw notFound("Review");
    const saved = await approveReviewRow(id, actor.user.name);
    if (!saved) throw notFound("Review");
    await record(actor, "approve", "review", id, before.approved ? `${saved.name}: already approved` : `${saved.name} (${saved.course})`);
    return saved;
  });
}

export async function deleteReview(actor: StaffActor, id: string): Promise<void> {
  await inTransaction(async () => {
    const review = await getReviewRow(id);
    if (!review || !(await deleteReviewRow(id))) throw notFound("Review");
    await record(actor, "delete", "review", id, `${review.name} (${review.course})`);
  });
}
