import { beforeAll, describe, expect, it } from "vitest";
import { insertContactQuery, getContactQuery } from "~/models/contact-query.server";
import { loader as listLoader } from "~/routes/admin.contact-queries";
import { action as detailsAction, loader as detailsLoader } from "~/routes/admin.contact-queries.$id";
import { action as deleteAction, loader as deleteLoader } from "~/routes/admin.contact-queries.$id_.delete";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

useTestDatabase();

let admin: string;
let editor: string;
const query = { name: "Sana Shaikh", email: "sana@example.com", phone: "+91 90000 11111", subject: "Weekend batch", message: "Do you have weekend batches?" };
type ListBody = { list: { data: { id: string; name: string; status: string; subject: string | null }[]; total: number } };

beforeAll(async () => {
  admin = await staffCookie("admin");
  editor = await staffCookie("editor");
});

describe("Contact Queries authorisation", () => {
  it("sends anonymous visitors to the sign-in page from every loader", async () => {
    const q = await insertContactQuery(query);
    for (const [fn, p, params] of [
      [listLoader, "/admin/contact-queries", {}],
      [detailsLoader, `/admin/contact-queries/${q.id}`, { id: q.id }],
      [deleteLoader, `/admin/contact-queries/${q.id}/delete`, { id: q.id }],
    ] as const) {
      const out = await run(fn, makeRequest(p), params);
      expect([out.status, out.location], p).toEqual([302, "/admin/login"]);
    }
  });

  it("refuses anonymous status changes, replies and deletes and changes nothing", async () => {
    const q = await insertContactQuery(query);
    const outs = [
      await run(detailsAction, makeRequest(`/admin/contact-queries/${q.id}`, { form: { intent: "status", status: "closed" } }), { id: q.id }),
      await run(detailsAction, makeRequest(`/admin/contact-queries/${q.id}`, { form: { intent: "reply" } }), { id: q.id }),
      await run(deleteAction, makeRequest(`/admin/contact-queries/${q.id}/delete`, { form: {} }), { id: q.id }),
    ];
    for (const out of outs) expect([out.status, out.location]).toEqual([302, "/admin/login"]);
    expect(await getContactQuery(q.id)).toMatchObject({ status: "new" });
  });

  it("lets editors and admins set statuses, reply and delete", async () => {
    for (const cookie of [editor, admin]) {
      const q = await insertContactQuery(query);
      for (const status of ["closed", "new", "replied"]) {
        const out = await run(detailsAction, makeRequest(`/admin/contact-queries/${q.id}?status=new`, { cookie, form: { intent: "status", status } }), {
          id: q.id,
        });
        expect([out.status, out.location]).toEqual([302, "/admin/contact-queries?status=new"]);
        expect((await getContactQuery(q.id))!.status).toBe(status);
      }
      const del = await run(deleteAction, makeRequest(`/admin/contact-queries/${q.id}/delete`, { cookie, form: {} }), { id: q.id });
      expect([del.status, del.location]).toEqual([302, "/admin/contact-queries"]);
      expect(await getContactQuery(q.id)).toBeNull();
    }
  });
});

describe("Reply via Email without JavaScript", () => {
  it("marks the query replied and comes back to its details, which then offer the mail program", async () => {
    const q = await insertContactQuery(query);
    const out = await run(
      detailsAction,
      makeRequest(`/admin/contact-queries/${q.id}?status=new&q=Sana&page=2`, { cookie: editor, form: { intent: "reply" } }),
      { id: q.id },
    );
    expect([out.status, out.location]).toEqual([302, `/admin/contact-queries/${q.id}?status=new&q=Sana&page=2&reply=ready`]);
    expect(await flashOf(out)).toEqual({ kind: "notice", message: "Contact query marked as Replied." });
    expect((await getContactQuery(q.id))!.status).toBe("replied");

    const details = await run(detailsLoader, makeRequest(out.location!, { cookie: editor }), { id: q.id });
    expect(details.body).toMatchObject({ query: { id: q.id, status: "replied" }, replyReady: true });
    const plain = await run(detailsLoader, makeRequest(`/admin/contact-queries/${q.id}`, { cookie: editor }), { id: q.id });
    expect(plain.body).toMatchObject({ replyReady: false });
  });

  it("shows the spec's message when a status update or a delete fails", async () => {
    const q = await insertContactQuery(query);
    const bad = await run(detailsAction, makeRequest(`/admin/contact-queries/${q.id}`, { cookie: editor, form: { intent: "status", status: "contacted" } }), {
      id: q.id,
    });
    expect(await flashOf(bad)).toEqual({ kind: "error", message: "Failed to update status. Please try again." });
    const gone = await run(detailsAction, makeRequest("/admin/contact-queries/gone", { cookie: editor, form: { intent: "reply" } }), { id: "gone" });
    expect([gone.status, gone.location]).toEqual([302, "/admin/contact-queries"]);
    expect(await flashOf(gone)).toEqual({ kind: "error", message: "Failed to update status. Please try again." });
    const del = await run(deleteAction, makeRequest("/admin/contact-queries/gone/delete", { cookie: editor, form: {} }), { id: "gone" });
    expect(await flashOf(del)).toEqual({ kind: "error", message: "Failed to delete contact query. Please try again." });
    expect((await getContactQuery(q.id))!.status).toBe("new");
  });
});

describe("contact queries list", () => {
  it("filters by tab and searches name, e-mail and phone", async () => {
    const a = await insertContactQuery({ ...query, name: "Tabbed Query", email: "tabbed@list.test", phone: "99999 88888" });
    await run(detailsAction, makeRequest(`/admin/contact-queries/${a.id}`, { cookie: editor, form: { intent: "status", status: "closed" } }), { id: a.id });
    const closed = (await run(listLoader, makeRequest("/admin/contact-queries?status=closed", { cookie: editor }))).body as ListBody;
    expect(closed.list.data.every((q) => q.status === "closed")).toBe(true);
    expect(closed.list.data.map((q) => q.id)).toContain(a.id);
    for (const term of ["Tabbed", "tabbed@list", "9999988888"]) {
      const found = (await run(listLoader, makeRequest(`/admin/contact-queries?q=${encodeURIComponent(term)}`, { cookie: editor }))).body as ListBody;
      expect(
        found.list.data.map((q) => q.id),
        term,
      ).toEqual([a.id]);
    }
  });
});
