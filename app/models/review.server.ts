import { type PublicationState, type ReviewStatus, type ReviewType } from "~/schemas/values";
import { isPublic, PUBLIC_STATE, publicationValues, toPublication, type Audience, type Publication } from "./publication.server";
import { contentChanged } from "./content-version.server";
import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import type { ReviewsTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { contains, pageBounds, toPage, type Page, type PageInput } from "./paging.server";
import { nextVersion, versionOf, type VersionedWrite } from "./versioning.server";

export type Review = {
  id: string;
  name: string;
  position: string;
  image: string;
  rating: number;
  review: string;
  course: string;
  type: ReviewType;
  videoThumbnail: string | null;
  linkedin: string | null;
  approved: boolean;
  /** One more on every change (a form, the API, an approval, a publish); who made the stored version. */
  version: number;
  updatedBy: string | null;
  createdAt: string;
  updatedAt: string;
} & Publication;

export type ReviewInput = {
  name: string;
  position: string;
  image: string;
  rating: number;
  review: string;
  course: string;
  type?: ReviewType;
  videoThumbnail?: string | null;
  linkedin?: string | null;
  approved?: boolean;
  /** Omitted: published (new rows) or unchanged (updates). */
  publication?: Publication;
};

function toReview(row: Selectable<ReviewsTable>): Review {
  return {
    ...row,
    rating: Number(row.rating),
    type: row.type === "video" ? "video" : "text",
    approved: Boolean(row.approved),
    ...versionOf(row),
    ...toPublication(row),
  };
}

export type ReviewFilter = PageInput & {
  status?: ReviewStatus;
  /** Matches reviews whose course name contains this text (the public course filter buttons). */
  courseContains?: string;
  /** "public": approved and published only (publication.server.ts); default staff (every review). */
  audience?: Audience;
  /** Staff lists: one publication state. */
  state?: PublicationState;
};

function filtered(filter: ReviewFilter) {
  let q = db().selectFrom("reviews");
  if (filter.audience === "public") q = q.where("approved", "=", 1).where(isPublic());
  else if (filter.state) q = q.where("state", "=", filter.state);
  if (filter.status === "approved") q = q.where("approved", "=", 1);
  if (filter.status === "pending") q = q.where("approved", "=", 0);
  if (filter.courseContains) q = q.where(contains("course", filter.courseContains));
  return q;
}

export async function listReviews(filter: ReviewFilter = {}): Promise<Page<Review>> {
  const { page, limit, offset } = pageBounds(filter);
  const q = filtered(filter);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toReview), Number(count.n), page, limit);
}

/** Public (approved and published) reviews' count and average rating (null when there are none). */
export async function reviewStats(): Promise<{ count: number; average: number | null }> {
  const r = await filtered({ audience: "public" })
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.avg<number | string | null>("rating").as("avg")])
    .executeTakeFirstOrThrow();
  const n = Number(r.n);
  return { count: n, average: n > 0 && r.avg !== null ? Math.round(Number(r.avg) * 10) / 10 : null };
}

export async function countReviews(filter: { approved?: boolean } = {}): Promise<number> {
  let q = db().selectFrom("reviews");
  if (filter.approved !== undefined) q = q.where("approved", "=", filter.approved ? 1 : 0);
  const r = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function getReview(id: string, audience: Audience = "staff"): Promise<Review | null> {
  const row = await filtered({ audience }).selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toReview(row) : null;
}

function values(i: ReviewInput) {
  return {
    name: i.name,
    position: i.position,
    image: i.image,
    rating: i.rating,
    review: i.review,
    course: i.course,
    type: i.type ?? "text",
    videoThumbnail: i.type === "video" ? (i.videoThumbnail ?? null) : null,
    linkedin: i.linkedin || null,
    approved: i.approved ? 1 : 0,
  };
}

/** New reviews start unapproved unless the caller says otherwise (DESIGN.md §4.3). */
export async function insertReview(input: ReviewInput, opts: { id?: string; createdAt?: string; createdBy?: string | null } = {}): Promise<Review> {
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? nowIso();
  await db()
    .insertInto("reviews")
    .values({ id, ...values(input), createdAt: now, updatedAt: now, updatedBy: opts.createdBy ?? null, ...publicationValues(input.publication) })
    .execute();
  await contentChanged({ switch: "after-warming" });
  return (await getReview(id))!;
}

/** What a public review shows of its author: a change to any of it may be their data going, so it switches at once. */
const PERSONAL: readonly (keyof ReturnType<typeof values>)[] = ["name", "position", "image", "review", "videoThumbnail", "linkedin"];

/** Adds one to the version; with `guard.version`, only if the stored one is still that (null: gone or changed meanwhile). */
export async function updateReviewRow(id: string, input: ReviewInput, guard: VersionedWrite): Promise<Review | null> {
  const before = await db().selectFrom("reviews").selectAll().where("id", "=", id).executeTakeFirst();
  let update = db()
    .updateTable("reviews")
    .set({ ...values(input), ...nextVersion(guard.updatedBy), ...(input.publication ? publicationValues(input.publication) : {}) })
    .where("id", "=", id);
  if (guard.version !== undefined) update = update.where("version", "=", guard.version);
  const r = await update.executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  // Off the public pages (unapproved, unpublished) or its author's details changed: at once. A new rating or
  // course, or anything on a review nobody sees yet: once the pages are rendered anew.
  const next = values(input);
  const wasPublic = before !== undefined && Number(before.approved) === 1 && before.state === PUBLIC_STATE;
  const staysPublic = next.approved === 1 && (input.publication ? publicationValues(input.publication).state : before?.state) === PUBLIC_STATE;
  const personalChanged = before !== undefined && PERSONAL.some((field) => (before[field] ?? null) !== (next[field] ?? null));
  await contentChanged({ switch: wasPublic && (!staysPublic || personalChanged) ? "at-once" : "after-warming" });
  return getReview(id);
}

export async function approveReviewRow(id: string, by: string): Promise<Review | null> {
  const r = await db()
    .updateTable("reviews")
    .set({ approved: 1, ...nextVersion(by) })
    .where("id", "=", id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  await contentChanged({ switch: "after-warming" });
  return getReview(id);
}

export async function deleteReviewRow(id: string): Promise<boolean> {
  const r = await db().deleteFrom("reviews").where("id", "=", id).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return false;
  await contentChanged();
  return true;
}
