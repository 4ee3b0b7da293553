import { db } from "~db/client.server";

/**
 * Every stored upload a row still names, as the 32-hex id at the start of its file name. Used by the
 * orphan sweep (app/infra/upload-sweep.server.ts): a file whose id appears nowhere here is left over from
 * a save that failed or a row that was deleted. Text columns are scanned whole because a syllabus may
 * embed uploaded images and staff may paste an uploaded image's URL into a review.
 */
const ID = /[a-f0-9]{32}/g;
const PAGE = 1000;

function collect(into: Set<string>, ...values: (string | null | undefined)[]) {
  for (const value of values) if (value) for (const m of value.matchAll(ID)) into.add(m[0]);
}

export async function referencedUploadIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  const courses = await db().selectFrom("courses").select(["image", "syllabusFile", "syllabus", "description"]).execute();
  for (const c of courses) collect(ids, c.image, c.syllabusFile, c.syllabus, c.description);
  const reviews = await db().selectFrom("reviews").select(["image", "videoThumbnail", "review"]).execute();
  for (const r of reviews) collect(ids, r.image, r.videoThumbnail, r.review);
  // Enquiries can number in the hundred thousands; only those with files matter, read a page at a time by id.
  let after = "";
  for (;;) {
    const rows = await db()
      .selectFrom("enquiries")
      .select(["id", "filePaths"])
      .where("id", ">", after)
      .where("filePaths", "!=", "[]")
      .where("filePaths", "!=", "")
      .orderBy("id")
      .limit(PAGE)
      .execute();
    for (const row of rows) collect(ids, row.filePaths);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  return ids;
}

/**
 * Which of these upload ids some row still names. A course save or delete removes the files the course
 * stopped naming only when nothing else names them: staff may have pasted the same image's URL into
 * another course's syllabus or into a review.
 */
export async function stillReferenced(ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const id of new Set(ids)) {
    if (!/^[a-f0-9]{32}$/.test(id)) continue;
    const like = `%${id}%`;
    const course = await db()
      .selectFrom("courses")
      .select("id")
      .where((eb) => eb.or([eb("image", "like", like), eb("syllabusFile", "like", like), eb("syllabus", "like", like), eb("description", "like", like)]))
      .limit(1)
      .executeTakeFirst();
    const review =
      course ??
      (await db()
        .selectFrom("reviews")
        .select("id")
        .where((eb) => eb.or([eb("image", "like", like), eb("videoThumbnail", "like", like), eb("review", "like", like)]))
        .limit(1)
        .executeTakeFirst());
    if (review) found.add(id);
  }
  return found;
}
