import { beforeAll, describe, expect, it } from "vitest";
import { insertReview, getReview, listReviews } from "~/models/review.server";
import { action as listAction, loader as listLoader } from "~/routes/admin.reviews";
import { action as createAction, loader as newLoader } from "~/routes/admin.reviews.new";
import { action as editAction, loader as editLoader } from "~/routes/admin.reviews.$id.edit";
import { action as deleteAction, loader as deleteLoader } from "~/routes/admin.reviews.$id.delete";
import { useTestDatabase } from "../helpers/db";
import { flashOf, makeRequest, run, staffCookie } from "./admin-route-helpers";

useTestDatabase();

let admin: string;
let editor: string;
const review = {
  name: "Meera Nair",
  position: "SOC Analyst at Acme",
  image: "/images/avatars/a.svg",
  rating: 5,
  review: "Great labs.",
  course: "SOC Analyst Training Program",
};
const form = (over: Record<string, string> = {}) => ({
  name: "Kiran Das",
  position: "SOC Analyst L1",
  image: "https://example.com/kiran.png",
  rating: "4",
  course: "SOC Analyst Training Program",
  review: "The SIEM labs were excellent.",
  type: "text",
  linkedin: "",
  videoThumbnail: "",
  ...over,
});
type ListBody = { list: { data: { id: string; approved: boolean }[]; total: number } };

beforeAll(async () => {
  admin = await staffCookie("admin");
  editor = await staffCookie("editor");
});

describe("Manage Reviews authorisation", () => {
  it("sends anonymous visitors to the sign-in page from every loader", async () => {
    const r = await insertReview(review);
    for (const [fn, path, params] of [
      [listLoader, "/admin/reviews", {}],
      [newLoader, "/admin/reviews/new", {}],
      [editLoader, `/admin/reviews/${r.id}/edit`, { id: r.id }],
      [deleteLoader, `/admin/reviews/${r.id}/delete`, { id: r.id }],
    ] as const) {
      const out = await run(fn, makeRequest(path), params);
      expect([out.status, out.location], path).toEqual([302, "/admin/login"]);
    }
  });

  it("refuses anonymous approve, add, edit and delete and changes nothing", async () => {
    const r = await insertReview(review);
    const before = (await listReviews({ limit: 100 })).total;
    const outs = [
      await run(listAction, makeRequest("/admin/reviews", { form: { intent: "approve", id: r.id } })),
      await run(createAction, makeRequest("/admin/reviews/new", { form: form() })),
      await run(editAction, makeRequest(`/admin/reviews/${r.id}/edit`, { form: form({ approved: "on" }) }), { id: r.id }),
      await run(deleteAction, makeRequest(`/admin/reviews/${r.id}/delete`, { form: {} }), { id: r.id }),
    ];
    for (const out of outs) expect([out.status, out.location]).toEqual([302, "/admin/login"]);
    expect((await listReviews({ limit: 100 })).total).toBe(before);
    expect(await getReview(r.id)).toMatchObject({ name: "Meera Nair", approved: false });
  });

  it("lets editors and admins approve, add, edit and delete", async () => {
    for (const cookie of [editor, admin]) {
      const pending = await insertReview(review);
      const approved = await run(listAction, makeRequest("/admin/reviews?status=pending", { cookie, form: { intent: "approve", id: pending.id } }));
      expect([approved.status, approved.location]).toEqual([302, "/admin/reviews?status=pending"]);
      expect((await getReview(pending.id))!.approved).toBe(true);

      const created = await run(createAction, makeRequest("/admin/reviews/new", { cookie, form: form() }));
      expect([created.status, created.location]).toEqual([302, "/admin/reviews"]);
      const saved = (await listReviews({ limit: 1 })).data[0];
      // No ticked checkbox: a new review starts unapproved (DESIGN.md §4.3).
      expect(saved).toMatchObject({ name: "Kiran Das", rating: 4, type: "text", approved: false });

      const edited = await run(
        editAction,
        makeRequest(`/admin/reviews/${saved.id}/edit`, { cookie, form: form({ type: "video", videoThumbnail: "https://example.com/t.jpg", approved: "on" }) }),
        { id: saved.id },
      );
      expect(edited.status).toBe(302);
      expect(await getReview(saved.id)).toMatchObject({ type: "video", videoThumbnail: "https://example.com/t.jpg", approved: true });

      // Editing back to pending is the only way to un-approve (spec §4).
      await run(editAction, makeRequest(`/admin/reviews/${saved.id}/edit`, { cookie, form: form() }), { id: saved.id });
      expect(await getReview(saved.id)).toMatchObject({ type: "text", videoThumbnail: null, approved: false });

      const deleted = await run(deleteAction, makeRequest(`/admin/reviews/${saved.id}/delete?status=pending`, { cookie, form: {} }), { id: saved.id });
      expect([deleted.status, deleted.location]).toEqual([302, "/admin/reviews?status=pending"]);
      expect(await getReview(saved.id)).toBeNull();
    }
  });
});

describe("reviews list and form", () => {
  it("filters by tab in SQL", async () => {
    const a = await insertReview({ ...review, name: "Tab Approved", approved: true });
    const p = await insertReview({ ...review, name: "Tab Pending" });
    const approvedTab = (await run(listLoader, makeRequest("/admin/reviews?status=approved", { cookie: editor }))).body as ListBody;
    const pendingTab = (await run(listLoader, makeRequest("/admin/reviews?status=pending", { cookie: editor }))).body as ListBody;
    expect(approvedTab.list.data.every((r) => r.approved)).toBe(true);
    expect(approvedTab.list.data.map((r) => r.id)).toContain(a.id);
    expect(pendingTab.list.data.every((r) => !r.approved)).toBe(true);
    expect(pendingTab.list.data.map((r) => r.id)).toContain(p.id);
  });

  it("answers with the messages and typed values and saves nothing", async () => {
    const before = (await listReviews({ limit: 100 })).total;
    const out = await run(
      createAction,
      makeRequest("/admin/reviews/new", { cookie: editor, form: form({ name: "", image: "", review: "", position: "Kept" }) }),
    );
    const reply = (out.body as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }).result;
    expect(reply.error.name).toEqual(["Student name is required"]);
    expect(reply.error.image).toEqual(["Profile image URL is required"]);
    expect(reply.error.review).toEqual(["Review text is required"]);
    expect(reply.initialValue.position).toBe("Kept");
    expect((await listReviews({ limit: 100 })).total).toBe(before);
  });

  it("shows the spec's message when approving fails", async () => {
    const out = await run(listAction, makeRequest("/admin/reviews", { cookie: editor, form: { intent: "approve", id: "gone" } }));
    expect([out.status, out.location]).toEqual([302, "/admin/reviews"]);
    expect(await flashOf(out)).toEqual({ kind: "error", message: "Failed to approve review. Please try again." });
  });
});
