import { describe, expect, it } from "vitest";
import { db } from "~db/client.server";
import { up } from "~db/migrations/0008-clean-text";
import { up as upBidi } from "~db/migrations/0020-bidi-controls";
import { getContactQuery, insertContactQuery } from "~/models/contact-query.server";
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

describe("migration 0020: direction controls stored before the rule", () => {
  it("leave one-line fields (U+2028/U+2029 there become a space); multi-line text keeps them, its separators become \\n", async () => {
    const enquiry = await insertEnquiry({ fullName: "x", email: "a@b.co", phone: "9876543210", preferredCourse: "SOC", preferredMode: "online" });
    await db()
      .updateTable("enquiries")
      .set({ fullName: "Ravi\u202Efdp.exe", preferredCourse: "\u2066SOC\u2069 Analyst", message: "\u202BHello\u202C\u2028there" })
      .where("id", "=", enquiry.id)
      .execute();
    const query = await insertContactQuery({ name: "x", email: "a@b.co", subject: "s", message: "m" });
    await db().updateTable("contact_queries").set({ name: "Meera\u2067 Das", subject: "Fees\u2029please\u202D" }).where("id", "=", query.id).execute();
    const course = await insertCourse({ title: "placeholder", category: "advanced", description: "x", highlights: ["h"] });
    await db()
      .updateTable("courses")
      .set({ title: "SOC\u202E Level 1", highlights: JSON.stringify(["\u202ALive labs", "\u2066"]) })
      .where("id", "=", course.id)
      .execute();
    const untouched = await insertEnquiry({ fullName: "Plain Name", email: "p@b.co", phone: "9876543211", preferredCourse: "SOC", preferredMode: "online" });

    await upBidi(db() as never);

    expect(await getEnquiry(enquiry.id)).toMatchObject({ fullName: "Ravifdp.exe", preferredCourse: "SOC Analyst", message: "\u202BHello\u202C\nthere" });
    expect(await getContactQuery(query.id)).toMatchObject({ name: "Meera Das", subject: "Fees please" });
    expect(await getCourse(course.id)).toMatchObject({ title: "SOC Level 1", highlights: ["Live labs"] });
    expect((await getEnquiry(untouched.id))!.updatedAt).toBe(untouched.updatedAt);
  });
});
