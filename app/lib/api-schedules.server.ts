import { UnknownCourseError } from "~/models/schedule.server";
import { invalid } from "./api.server";

/** Runs a schedule save; a course id that names no course is the caller's mistake (400 on `course`), not a 500. */
export async function saveSchedule<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (error instanceof UnknownCourseError) throw invalid({ course: error.message });
    throw error;
  }
}
