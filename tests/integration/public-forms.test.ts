import fs from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { attachmentFile } from "../helpers/stored-files";
import { listContactQueries } from "~/models/contact-query.server";
import { pageEnquiries } from "~/models/enquiry.server";
import { action as homeAction } from "~/routes/_site._index";
import { action as contactAction } from "~/routes/_site.contact";
import { action as enquiryAction } from "~/routes/_site.enquiry";
import { clearTables, useTestDatabase as setupTestDatabase } from "../helpers/db";
import { callAction, formRequest, multipartRequest } from "./public-helpers";

// A fresh migrated database for this file (named apart from React hooks for the linter).
setupTestDatabase();
beforeEach(clearTables);

const enquiry = {
  fullName: "Ravi Kumar",
  email: "Ravi@Example.com",
  phone: "98765 43210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "hybrid",
  message: "Weekend batch please",
};
const contact = { name: "Meera Das", email: "meera@example.com", phone: "", subject: "Fees", message: "What are the fees?" };

describe("home page action", () => {
  it("stores a valid enquiry with the values as typed (ticked WhatsApp box) and answers success", async () => {
    const out = await callAction(homeAction, formRequest("/?index", { intent: "enquiry", ...enquiry, whatsappNotifications: "on" }));
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ intent: "enquiry", status: "success" });
    const { data } = await pageEnquiries();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      fullName: "Ravi Kumar",
      email: "ravi@example.com",
      // Typed as "98765 43210"; stored as the 10-digit number.
      phone: "9876543210",
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "hybrid",
      message: "Weekend batch please",
      whatsappNotifications: true,
      status: "new",
      filePaths: [],
    });
  });

  it("stores whatsappNotifications false when the box is left unticked", async () => {
    await callAction(homeAction, formRequest("/?index", { intent: "enquiry", ...enquiry }));
    const { data } = await pageEnquiries();
    expect(data[0].whatsappNotifications).toBe(false);
  });

  it("stores a contact query from the home page's second form", async () => {
    const out = await callAction(homeAction, formRequest("/?index", { intent: "contact", ...contact }));
    expect(out.body).toMatchObject({ intent: "contact", status: "success" });
    const { data } = await listContactQueries();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      name: "Meera Das",
      email: "meera@example.com",
      phone: null,
      subject: "Fees",
      message: "What are the fees?",
      status: "new",
    });
    expect((await pageEnquiries()).total).toBe(0);
  });

  it("answers an empty enquiry with every message of spec §5, word for word, and stores nothing", async () => {
    const out = await callAction(
      homeAction,
      formRequest("/?index", { intent: "enquiry", fullName: "", email: "", phone: "", preferredCourse: "", preferredMode: "" }),
    );
    expect(out.status).toBe(400);
    expect(out.body.submission.error).toEqual({
      fullName: ["Full name is required"],
      email: ["Email is required"],
      phone: ["Phone number is required"],
      preferredCourse: ["Please select a course"],
      preferredMode: ["Please select preferred mode"],
    });
    expect((await pageEnquiries()).total).toBe(0);
  });

  it("keeps what was typed when a field is invalid, with the shape messages", async () => {
    const out = await callAction(homeAction, formRequest("/?index", { intent: "enquiry", ...enquiry, email: "ravi@", phone: "12345" }));
    expect(out.status).toBe(400);
    expect(out.body.submission.error).toEqual({ email: ["Valid email is required"], phone: ["Valid 10-digit phone number is required"] });
    expect(out.body.submission.initialValue).toMatchObject({ fullName: "Ravi Kumar", email: "ravi@", phone: "12345", preferredMode: "hybrid" });
    expect((await pageEnquiries()).total).toBe(0);
  });

  it("answers an invalid contact message with the spec's messages and stores nothing", async () => {
    const out = await callAction(homeAction, formRequest("/?index", { intent: "contact", name: " ", email: "not-an-email", message: "" }));
    expect(out.status).toBe(400);
    expect(out.body.submission.error).toEqual({ name: ["Name is required"], email: ["Valid email is required"], message: ["Message is required"] });
    expect((await listContactQueries()).total).toBe(0);
  });

  it("pretends success to a bot that filled the hidden field, and stores nothing", async () => {
    for (const form of [
      { intent: "enquiry", ...enquiry, website: "http://spam.example" },
      { intent: "contact", ...contact, website: "http://spam.example" },
    ]) {
      const out = await callAction(homeAction, formRequest("/?index", form));
      expect(out.status).toBe(200);
      expect(out.body.status).toBe("success");
    }
    expect((await pageEnquiries()).total).toBe(0);
    expect((await listContactQueries()).total).toBe(0);
  });

  it("refuses a post without a known form", async () => {
    const out = await callAction(homeAction, formRequest("/?index", { intent: "other", ...contact }));
    expect(out.status).toBe(400);
    expect((await listContactQueries()).total).toBe(0);
  });
});

describe("/contact action", () => {
  it("stores the message, with the phone as the enquiry form stores one", async () => {
    const out = await callAction(contactAction, formRequest("/contact", { intent: "contact", ...contact, phone: "+91 98765 43210" }));
    expect(out.body.status).toBe("success");
    const { data } = await listContactQueries();
    expect(data[0]).toMatchObject({ name: "Meera Das", phone: "9876543210", subject: "Fees" });
  });

  it("refuses a phone that is not a 10-digit Indian number, and stores nothing", async () => {
    const out = await callAction(contactAction, formRequest("/contact", { intent: "contact", ...contact, phone: "98765" }));
    expect(out.body.status).not.toBe("success");
    expect(JSON.stringify(out.body)).toContain("Valid 10-digit phone number is required");
    expect((await listContactQueries()).total).toBe(0);
  });
});

describe("/enquiry action (multipart, with attachments)", () => {
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");

  it("stores the enquiry and its attachment on disk", async () => {
    const out = await callAction(
      enquiryAction,
      multipartRequest("/enquiry?course=x", { intent: "enquiry", ...enquiry, whatsappNotifications: "on" }, [
        { field: "filePaths", name: "my resume.pdf", type: "application/pdf", data: pdf },
      ]),
    );
    expect(out.body).toMatchObject({ intent: "enquiry", status: "success" });
    const { data } = await pageEnquiries();
    expect(data).toHaveLength(1);
    expect(data[0].filePaths).toHaveLength(1);
    expect(data[0].filePaths[0]).toMatch(/^[a-f0-9]{32}-my resume\.pdf$/);
    const file = attachmentFile(data[0].filePaths[0]);
    expect(fs.readFileSync(file).equals(pdf)).toBe(true);
  });

  it("refuses a file that is not an allowed type, keeps no file and stores nothing", async () => {
    const out = await callAction(
      enquiryAction,
      multipartRequest("/enquiry", { intent: "enquiry", ...enquiry }, [
        { field: "filePaths", name: "notes.pdf", type: "application/pdf", data: Buffer.from("just text, not a pdf") },
      ]),
    );
    expect(out.status).toBe(400);
    expect(out.body.fileError).toBe("Please attach PDF, DOC, DOCX, JPG or PNG files only");
    expect((await pageEnquiries()).total).toBe(0);
  });

  it("refuses more than three files", async () => {
    const files = [1, 2, 3, 4].map((n) => ({ field: "filePaths", name: `cv${n}.pdf`, type: "application/pdf", data: pdf }));
    const out = await callAction(enquiryAction, multipartRequest("/enquiry", { intent: "enquiry", ...enquiry }, files));
    expect(out.body.fileError).toBe("You can attach up to 3 files");
    expect((await pageEnquiries()).total).toBe(0);
  });

  it("removes the stored file when the rest of the form is invalid, and asks for it again", async () => {
    const before = listAttachmentFiles();
    const out = await callAction(
      enquiryAction,
      multipartRequest("/enquiry", { intent: "enquiry", ...enquiry, fullName: "" }, [
        { field: "filePaths", name: "cv.pdf", type: "application/pdf", data: pdf },
      ]),
    );
    expect(out.status).toBe(400);
    expect(out.body.submission.error).toEqual({ fullName: ["Full name is required"] });
    expect(out.body.fileError).toBe("Please attach your files again.");
    expect(listAttachmentFiles()).toEqual(before);
    expect((await pageEnquiries()).total).toBe(0);
  });

  it("drops a bot's post and its files", async () => {
    const before = listAttachmentFiles();
    const out = await callAction(
      enquiryAction,
      multipartRequest("/enquiry", { intent: "enquiry", ...enquiry, website: "x" }, [
        { field: "filePaths", name: "cv.pdf", type: "application/pdf", data: pdf },
      ]),
    );
    expect(out.body.status).toBe("success");
    expect(listAttachmentFiles()).toEqual(before);
    expect((await pageEnquiries()).total).toBe(0);
  });

  it("also takes a plain urlencoded post (no file field)", async () => {
    const out = await callAction(enquiryAction, formRequest("/enquiry", { intent: "enquiry", ...enquiry }));
    expect(out.body.status).toBe("success");
    expect((await pageEnquiries()).total).toBe(1);
  });
});

function listAttachmentFiles(): string[] {
  const dir = attachmentFile(`${"0".repeat(32)}-x.pdf`).replace(/\/[^/]+$/, "");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}
