import { describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { up } from "~db/migrations/0008-clean-text";
import { getCourse, insertCourse } from "~/models/course.server";
import { getEnquiry, insertEnquiry } from "~/models/enquiry.server";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";

setupTestDatabase();

describe("migration 0008: text stored before the control-character rule", () => {
  it("loses its C0/C1 controls; line breaks stay only in multi-line fields", async () => {
    const course = await insertCourse({ title: "placeholder", category: "advanced", description: "x", highlights: ["h"] });
    // Written straight into the table, as rows from before the rule were.
    await db()
      .updateTable("courses")
      .set({ title: "Ctl\u0001Test\u0085\nNext", description: "One\u0000\r\nTwo\tthree", highlights: JSON.stringify(["A\u0007b", "\u0002"]) })
      .where("id", "=", course.id)
      .execute();
    const enquiry = await insertEnquiry({ fullName: "x", email: "a@b.co", phone: "9876543210", preferredCourse: "SOC", preferredMode: "online" });
    await db().updateTable("enquiries").set({ fullName: "Ravi\u009b Kumar", message: "Hello\u001b[31m\nthere" }).where("id", "=", enquiry.id).execute();
    const untouched = await insertCourse({ title: "Clean Title", category: "beginner", description: "Plain\ntext", highlights: [] });

    await up(db() as never);

    expect(await getCourse(course.id)).toMatchObject({ title: "CtlTest Next", description: "One\nTwo\tthree", highlights: ["Ab"] });
    expect(await getEnquiry(enquiry.id)).toMatchObject({ fullName: "Ravi Kumar", message: "Hello[31m\nthere" });
    expect((await getCourse(untouched.id))!.updatedAt).toBe(untouched.updatedAt);
    expect((await getCourse(untouched.id))!.description).toBe("Plain\ntext");
  });
});
