import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDb, openDb } from "~db/client.server";
import { ORPHAN_MIN_AGE_MS, sweepOrphanUploads } from "~/infra/upload-sweep.server";
import { uploadRoot } from "../helpers/stored-files";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { insertReview } from "~/models/review.server";
import { useTestDatabase } from "../helpers/db";

/**
 * The orphan sweep on a real database and upload folder: files no row names (left by a save that failed)
 * and stale partial uploads go; referenced files, recent files and files of other shapes stay.
 */
useTestDatabase();

const hex = (c: string) => c.repeat(32);
const old = Date.now() - ORPHAN_MIN_AGE_MS - 60_000;

function put(rel: string, ageMs?: number): string {
  const full = path.join(uploadRoot(), rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, "x");
  if (ageMs !== undefined) fs.utimesSync(full, ageMs / 1000, ageMs / 1000);
  return full;
}

describe("orphan upload sweep", () => {
  it("removes unreferenced old files and keeps everything a row still names", async () => {
    const files = {
      courseImage: put(`images/${hex("a")}.webp`, old),
      syllabusImage: put(`images/${hex("b")}.webp`, old),
      reviewImage: put(`images/${hex("c")}.webp`, old),
      syllabusFile: put(`syllabus/${hex("d")}.pdf`, old),
      attachment: put(`enquiries/${hex("e")}-cv.pdf`, old),
      orphanImage: put(`images/${hex("1")}.webp`, old),
      orphanSyllabus: put(`syllabus/${hex("2")}.docx`, old),
      orphanAttachment: put(`enquiries/${hex("3")}-photo.jpg`, old),
      staleTmp: put(`tmp/${hex("4")}`, old),
      recentOrphan: put(`images/${hex("5")}.webp`),
      // An image put into a syllabus two hours ago, in a course form still open: not a leftover yet.
      editorImage: put(`images/${hex("8")}.webp`, Date.now() - 2 * 60 * 60 * 1000),
      recentTmp: put(`tmp/${hex("6")}`),
      notOurs: put("images/logo.png", old),
    };
    await insertCourse({
      title: "Sweep Course",
      category: "beginner",
      description: "d",
      image: `/media/images/${hex("a")}.webp`,
      syllabus: `# Week 1\n\n![diagram](/media/images/${hex("b")}.webp)`,
      syllabusFile: `/media/syllabus/${hex("d")}.pdf`,
    });
    await insertReview({
      name: "R",
      position: "Analyst",
      image: `/media/images/${hex("c")}.webp`,
      rating: 5,
      review: "Good",
      course: "Sweep Course",
      type: "text",
    });
    await insertEnquiry({
      fullName: "E",
      email: "e@example.com",
      phone: "9876543210",
      preferredCourse: "Sweep Course",
      preferredMode: "online",
      filePaths: [`${hex("e")}-cv.pdf`],
    });
    for (let i = 0; i < 5; i++)
      await insertEnquiry({ fullName: `N${i}`, email: `n${i}@example.com`, phone: "9876543210", preferredCourse: "X", preferredMode: "online" });

    const result = await sweepOrphanUploads();

    const gone = ["orphanImage", "orphanSyllabus", "orphanAttachment", "staleTmp"] as const;
    const kept = ["courseImage", "syllabusImage", "reviewImage", "syllabusFile", "attachment", "recentOrphan", "editorImage", "recentTmp", "notOurs"] as const;
    for (const k of gone) expect(fs.existsSync(files[k]), k).toBe(false);
    for (const k of kept) expect(fs.existsSync(files[k]), k).toBe(true);
    expect(result.removed.sort()).toEqual(
      [`images/${hex("1")}.webp`, `syllabus/${hex("2")}.docx`, `enquiries/${hex("3")}-photo.jpg`, `tmp/${hex("4")}`].sort(),
    );
    expect(result.kept).toBe(5);
  });

  it("does nothing and fails loudly when the database cannot be read", async () => {
    const orphan = put(`images/${hex("7")}.webp`, old);
    const url = process.env.DATABASE_URL!;
    await closeDb();
    try {
      await expect(sweepOrphanUploads()).rejects.toThrow();
      expect(fs.existsSync(orphan)).toBe(true);
    } finally {
      await openDb(url);
    }
  });
});
