import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { insertEnquiry, getEnquiry, pageEnquiries } from "~/models/enquiry.server";
import { attachmentFile } from "../helpers/stored-files";
import { loader as listLoader } from "~/routes/admin.enquiries";
import { action as detailsAction, loader as detailsLoader } from "~/routes/admin.enquiries.$id";
import { action as deleteAction, loader as deleteLoader } from "~/routes/admin.enquiries.$id_.delete";
import { loader as fileLoader } from "~/routes/admin.enquiries.$id_.files.$name";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

useTestDatabase();

let admin: string;
let editor: string;
const enquiry = {
  fullName: "Ravi Kumar",
  email: "ravi@example.com",
  phone: "98765 43210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online" as const,
};
type ListBody = { list: { data: { id: string; fullName: string; status: string }[]; total: number; page: number; pages: number }; error: string | null };

function storeAttachment(name: string, content: string): string {
  const stored = `${"ab".repeat(16)}-${name}`;
  const file = attachmentFile(stored);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return stored;
}

beforeAll(async () => {
  admin = await staffCookie("admin");
  editor = await staffCookie("editor");
});

describe("Manage Enquiries authorisation", () => {
  it("sends anonymous visitors to the sign-in page from every loader, the file download included", async () => {
    const stored = storeAttachment("anon-cv.pdf", "%PDF-1.4 secret");
    const e = await insertEnquiry({ ...enquiry, filePaths: [stored] });
    for (const [fn, p, params] of [
      [listLoader, "/admin/enquiries", {}],
      [detailsLoader, `/admin/enquiries/${e.id}`, { id: e.id }],
      [deleteLoader, `/admin/enquiries/${e.id}/delete`, { id: e.id }],
      [fileLoader, `/admin/enquiries/${e.id}/files/${stored}`, { id: e.id, name: stored }],
    ] as const) {
      const out = await run(fn, makeRequest(p), params);
      expect([out.status, out.location], p).toEqual([302, "/admin/login"]);
    }
  });

  it("refuses anonymous status changes and deletes and changes nothing", async () => {
    const e = await insertEnquiry(enquiry);
    const status = await run(detailsAction, makeRequest(`/admin/enquiries/${e.id}`, { form: { intent: "status", status: "enrolled" } }), { id: e.id });
    const del = await run(deleteAction, makeRequest(`/admin/enquiries/${e.id}/delete`, { form: {} }), { id: e.id });
    for (const out of [status, del]) expect([out.status, out.location]).toEqual([302, "/admin/login"]);
    expect(await getEnquiry(e.id)).toMatchObject({ status: "new" });
  });

  it("lets editors and admins move an enquiry through every status, in any order, and delete it with its files", async () => {
    for (const cookie of [editor, admin]) {
      const stored = storeAttachment("cv.pdf", "%PDF-1.4 cv");
      const e = await insertEnquiry({ ...enquiry, filePaths: [stored] });
      for (const status of ["contacted", "enrolled", "closed", "new", "closed", "contacted"]) {
        const out = await run(detailsAction, makeRequest(`/admin/enquiries/${e.id}?status=new&q=ravi`, { cookie, form: { intent: "status", status } }), {
          id: e.id,
        });
        // The details close and the list (same tab and search) reloads.
        expect([out.status, out.location]).toEqual([302, "/admin/enquiries?status=new&q=ravi"]);
        expect((await getEnquiry(e.id))!.status).toBe(status);
      }
      const del = await run(deleteAction, makeRequest(`/admin/enquiries/${e.id}/delete`, { cookie, form: {} }), { id: e.id });
      expect([del.status, del.location]).toEqual([302, "/admin/enquiries"]);
      expect(await getEnquiry(e.id)).toBeNull();
      expect(fs.existsSync(attachmentFile(stored))).toBe(false);
    }
  });
});

describe("enquiry details and files", () => {
  it("shows every field and links the attached files", async () => {
    const stored = storeAttachment("resume (final).pdf", "%PDF-1.4 resume");
    const e = await insertEnquiry({ ...enquiry, message: "Weekend batch?", whatsappNotifications: true, filePaths: [stored] });
    const out = await run(detailsLoader, makeRequest(`/admin/enquiries/${e.id}`, { cookie: editor }), { id: e.id });
    const body = out.body as { enquiry: Record<string, unknown>; files: { href: string; label: string }[] };
    expect(body.enquiry).toMatchObject({ fullName: "Ravi Kumar", phone: "98765 43210", message: "Weekend batch?", whatsappNotifications: true, status: "new" });
    expect(body.files).toEqual([{ href: `/admin/enquiries/${e.id}/files/${encodeURIComponent(stored)}`, label: "resume (final).pdf" }]);
  });

  it("streams a file to staff as a download that is never sniffed", async () => {
    const stored = storeAttachment("cv-2.pdf", "%PDF-1.4 the cv");
    const e = await insertEnquiry({ ...enquiry, filePaths: [stored] });
    const res = (await fileLoader({
      request: makeRequest(`/admin/enquiries/${e.id}/files/${stored}`, { cookie: editor }),
      params: { id: e.id, name: stored },
      context: { cspNonce: "", clientIp: "203.0.113.9" },
    } as never)) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="cv-2.pdf"; filename*=UTF-8''cv-2.pdf`);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(await res.text()).toBe("%PDF-1.4 the cv");
  });

  it("answers 404 for a file of another enquiry, a made-up name or a path trick", async () => {
    const stored = storeAttachment("other.pdf", "%PDF-1.4 other");
    const owner = await insertEnquiry({ ...enquiry, filePaths: [stored] });
    const stranger = await insertEnquiry(enquiry);
    for (const [id, name] of [
      [stranger.id, stored],
      [owner.id, `${"cd".repeat(16)}-missing.pdf`],
      [owner.id, "../../etc/passwd"],
    ]) {
      const out = await run(fileLoader, makeRequest(`/admin/enquiries/${id}/files/x`, { cookie: editor }), { id, name });
      expect(out.status, name).toBe(404);
    }
  });

  it("shows the spec's message when a status update fails", async () => {
    const e = await insertEnquiry(enquiry);
    for (const [id, form] of [
      [e.id, { intent: "status", status: "archived" }],
      ["gone", { intent: "status", status: "closed" }],
    ] as const) {
      const out = await run(detailsAction, makeRequest(`/admin/enquiries/${id}`, { cookie: editor, form }), { id });
      expect([out.status, out.location]).toEqual([302, "/admin/enquiries"]);
      expect(await flashOf(out)).toEqual({ kind: "error", message: "Failed to update status. Please try again." });
    }
    expect((await getEnquiry(e.id))!.status).toBe("new");
  });

  it("shows the spec's message when a delete fails", async () => {
    const out = await run(deleteAction, makeRequest("/admin/enquiries/gone/delete", { cookie: editor, form: {} }), { id: "gone" });
    expect(await flashOf(out)).toEqual({ kind: "error", message: "Failed to delete enquiry. Please try again." });
  });
});

describe("enquiries list", () => {
  it("filters by tab, searches name, e-mail and phone, and pages newest first in SQL", async () => {
    const t0 = Date.parse("2032-02-01T00:00:00Z");
    for (let i = 0; i < 25; i++) {
      await insertEnquiry(
        { ...enquiry, fullName: `Paged Person ${i}`, email: `paged${i}@list.test`, phone: `77777 000${String(i).padStart(2, "0")}` },
        { createdAt: new Date(t0 + i * 60_000).toISOString() },
      );
    }
    const page1 = (await run(listLoader, makeRequest("/admin/enquiries?q=Paged%20Person", { cookie: editor }))).body as ListBody;
    expect(page1.list.total).toBe(25);
    expect(page1.list.data[0].fullName).toBe("Paged Person 24");
    expect(page1.list.pages).toBe(2);
    const page2 = (await run(listLoader, makeRequest("/admin/enquiries?q=Paged%20Person&page=2", { cookie: editor }))).body as ListBody;
    expect(page2.list.data.map((e) => e.fullName)).toEqual(["Paged Person 4", "Paged Person 3", "Paged Person 2", "Paged Person 1", "Paged Person 0"]);
    expect(((await run(listLoader, makeRequest("/admin/enquiries?q=paged7@list", { cookie: editor }))).body as ListBody).list.total).toBe(1);
    expect(((await run(listLoader, makeRequest("/admin/enquiries?q=7777700013", { cookie: editor }))).body as ListBody).list.data[0].fullName).toBe(
      "Paged Person 13",
    );

    const [first] = (await pageEnquiries({ q: "Paged Person", limit: 1 })).data;
    await run(detailsAction, makeRequest(`/admin/enquiries/${first.id}`, { cookie: editor, form: { intent: "status", status: "enrolled" } }), { id: first.id });
    const enrolled = (await run(listLoader, makeRequest("/admin/enquiries?status=enrolled&q=Paged", { cookie: editor }))).body as ListBody;
    expect(enrolled.list.data.map((e) => e.id)).toEqual([first.id]);
  });

  it("goes to the last page when the page asked for is past the end", async () => {
    const out = await run(listLoader, makeRequest("/admin/enquiries?q=Paged%20Person&page=9", { cookie: editor }));
    expect([out.status, out.location]).toEqual([302, "/admin/enquiries?q=Paged+Person&page=2"]);
  });
});
