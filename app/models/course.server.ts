import { type CourseCategory, type PublicationState } from "~/schemas/values";
import { isPublic, isPublicRow, PUBLIC_STATE, publicationValues, toPublication, type Audience, type Publication } from "./publication.server";
import { contentChanged } from "./content-version.server";
import { courseKeys } from "./content-keys.server";
import type { Selectable, Updateable } from "kysely";
import { db, inTransaction } from "~db/client.server";
import type { CoursesTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { listToText, pageBounds, parseList, toPage, type Page, type PageInput } from "./paging.server";
import { nextVersion, versionOf, type VersionedWrite } from "./versioning.server";

export type Course = {
  id: string;
  slug: string;
  title: string;
  category: CourseCategory;
  duration: string;
  description: string;
  image: string | null;
  featured: boolean;
  highlights: string[];
  modes: string[];
  schedules: string[];
  syllabus: string;
  syllabusFile: string | null;
  syllabusFileName: string;
  /** Whole rupees, or null: "Fee on request". */
  fee: number | null;
  feeIncludesGst: boolean;
  /** One more on every change (a form, the API, a publish); who made the stored version. */
  version: number;
  updatedBy: string | null;
  createdAt: string;
  updatedAt: string;
} & Publication;

export type CourseInput = {
  title: string;
  category: CourseCategory;
  duration?: string;
  description: string;
  image?: string | null;
  featured?: boolean;
  highlights?: string[];
  modes?: string[];
  schedules?: string[];
  syllabus?: string;
  syllabusFile?: string | null;
  syllabusFileName?: string;
  fee?: number | null;
  feeIncludesGst?: boolean;
  /** Omitted: published (new rows) or unchanged (updates). */
  publication?: Publication;
};

function toCourse(row: Selectable<CoursesTable>): Course {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    category: row.category as CourseCategory,
    duration: row.duration,
    description: row.description,
    image: row.image,
    featured: Boolean(row.featured),
    highlights: parseList(row.highlights),
    modes: parseList(row.modes),
    schedules: parseList(row.schedules),
    syllabus: row.syllabus,
    syllabusFile: row.syllabusFile,
    syllabusFileName: row.syllabusFileName,
    fee: row.fee === null || row.fee === undefined ? null : Number(row.fee),
    feeIncludesGst: Boolean(row.feeIncludesGst),
    ...versionOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...toPublication(row),
  };
}

export function slugify(title: string): string {
  const base = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
  return base || "course";
}

async function uniqueSlug(title: string): Promise<string> {
  const base = slugify(title);
  const taken = new Set((await db().selectFrom("courses").select("slug").where("slug", "like", `${base}%`).execute()).map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** audience "public": published courses only (the visibility rule is in publication.server.ts); default staff, who may filter by state. */
export type CourseFilter = PageInput & { category?: string; featured?: boolean; audience?: Audience; state?: PublicationState };

function filtered(filter: Omit<CourseFilter, "page" | "limit">) {
  let q = db().selectFrom("courses");
  if (filter.audience === "public") q = q.where(isPublic());
  else if (filter.state) q = q.where("state", "=", filter.state);
  if (filter.category) q = q.where("category", "=", filter.category);
  if (filter.featured !== undefined) q = q.where("featured", "=", filter.featured ? 1 : 0);
  return q;
}

export async function listCourses(filter: CourseFilter = {}): Promise<Page<Course>> {
  const { page, limit, offset } = pageBounds(filter);
  const q = filtered(filter);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toCourse), Number(count.n), page, limit);
}

/** Every course, newest first: the public pages and dropdowns show the whole (small) catalogue; public unless staff ask. */
export async function listAllCourses(filter: { category?: string; featured?: boolean; audience?: Audience } = {}): Promise<Course[]> {
  const rows = await filtered({ ...filter, audience: filter.audience ?? "public" })
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
  return rows.map(toCourse);
}

/** Course names for dropdowns: the enquiry form's are public ones only; the back office's all of them. */
export async function listCourseTitles(
  audience: Audience = "public",
): Promise<{ id: string; title: string; slug: string; fee: number | null; feeIncludesGst: boolean }[]> {
  const rows = await filtered({ audience })
    .select(["id", "title", "slug", "fee", "feeIncludesGst"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((r) => ({ ...r, fee: r.fee === null ? null : Number(r.fee), feeIncludesGst: Boolean(r.feeIncludesGst) }));
}

export async function getCourse(id: string, audience: Audience = "staff"): Promise<Course | null> {
  const row = await filtered({ audience }).selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toCourse(row) : null;
}

/** The course an enquiry names by its title (enquiries keep the title they were sent with). */
export async function getCourseByTitle(title: string): Promise<Course | null> {
  const row = await filtered({ audience: "staff" }).selectAll().where("title", "=", title).orderBy("createdAt", "desc").executeTakeFirst();
  return row ? toCourse(row) : null;
}

export async function getCourseBySlug(slug: string, audience: Audience = "public"): Promise<Course | null> {
  const row = await filtered({ audience }).selectAll().where("slug", "=", slug).executeTakeFirst();
  return row ? toCourse(row) : null;
}

export async function countCourses(): Promise<number> {
  const r = await db()
    .selectFrom("courses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertCourse(input: CourseInput, opts: { id?: string; createdAt?: string; createdBy?: string | null } = {}): Promise<Course> {
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? nowIso();
  await db()
    .insertInto("courses")
    .values({
      id,
      slug: await uniqueSlug(input.title),
      title: input.title,
      category: input.category,
      duration: input.duration ?? "",
      description: input.description,
      image: input.image ?? null,
      featured: input.featured ? 1 : 0,
      highlights: listToText(input.highlights),
      modes: listToText(input.modes),
      schedules: listToText(input.schedules),
      syllabus: input.syllabus ?? "",
      syllabusFile: input.syllabusFile ?? null,
      syllabusFileName: input.syllabusFileName || "course-syllabus.pdf",
      fee: input.fee ?? null,
      feeIncludesGst: input.feeIncludesGst === false ? 0 : 1,
      createdAt: now,
      updatedAt: now,
      updatedBy: opts.createdBy ?? null,
      ...publicationValues(input.publication),
    })
    .execute();
  // Nothing leaves the public pages: they switch once the new ones are rendered (its own page at once).
  await contentChanged({ switch: "after-warming", touched: await courseKeys([id]) });
  return (await getCourse(id))!;
}

/**
 * Writes the changes and adds one to the version; with `guard.version`, only if the stored one is still that. Null
 * when the row is gone or was changed meanwhile (the caller reads it again to tell which).
 */
export async function updateCourseRow(id: string, input: Partial<CourseInput>, guard: VersionedWrite): Promise<Course | null> {
  const values: Updateable<CoursesTable> = { ...nextVersion(guard.updatedBy) };
  if (input.title !== undefined) values.title = input.title;
  if (input.category !== undefined) values.category = input.category;
  if (input.duration !== undefined) values.duration = input.duration;
  if (input.description !== undefined) values.description = input.description;
  if (input.image !== undefined) values.image = input.image;
  if (input.featured !== undefined) values.featured = input.featured ? 1 : 0;
  if (input.highlights !== undefined) values.highlights = listToText(input.highlights);
  if (input.modes !== undefined) values.modes = listToText(input.modes);
  if (input.schedules !== undefined) values.schedules = listToText(input.schedules);
  if (input.syllabus !== undefined) values.syllabus = input.syllabus;
  if (input.syllabusFile !== undefined) values.syllabusFile = input.syllabusFile;
  if (input.syllabusFileName !== undefined) values.syllabusFileName = input.syllabusFileName || "course-syllabus.pdf";
  if (input.fee !== undefined) values.fee = input.fee;
  if (input.feeIncludesGst !== undefined) values.feeIncludesGst = input.feeIncludesGst ? 1 : 0;
  if (input.publication !== undefined) Object.assign(values, publicationValues(input.publication));
  const result = await inTransaction(async () => {
    const before = await db().selectFrom("courses").select("state").where("id", "=", id).executeTakeFirst();
    let update = db().updateTable("courses").set(values).where("id", "=", id);
    if (guard.version !== undefined) update = update.where("version", "=", guard.version);
    const r = await update.executeTakeFirst();
    // Batches carry a copy of the course title; keep it in step.
    if (Number(r.numUpdatedRows) > 0 && input.title !== undefined) {
      await db().updateTable("schedules").set({ courseName: input.title }).where("course", "=", id).execute();
    }
    // An unpublish takes the course off the public pages at once; any other edit once they are rendered anew,
    // but for the course's own pages and its batches' calendar files.
    const unpublished = before !== undefined && isPublicRow(before) && values.state !== undefined && values.state !== PUBLIC_STATE;
    if (Number(r.numUpdatedRows) > 0) await contentChanged({ switch: unpublished ? "at-once" : "after-warming", touched: await courseKeys([id]) });
    return r;
  });
  if (Number(result.numUpdatedRows) === 0) return null;
  return getCourse(id);
}

/** Deletes the course and (by the foreign key) its batches. Returns the deleted course so its files can be removed. */
export async function deleteCourseRow(id: string): Promise<Course | null> {
  const course = await getCourse(id);
  if (!course) return null;
  await inTransaction(async () => {
    await db().deleteFrom("schedules").where("course", "=", id).execute();
    await db().deleteFrom("courses").where("id", "=", id).execute();
    await contentChanged();
  });
  return course;
}
