import { describe, expect, it, vi } from "vitest";
import { listContactQueries } from "~/models/contact-query.server";
import { pageEnquiries } from "~/models/enquiry.server";
import { action as homeAction } from "~/routes/_site._index";
import { action as contactAction } from "~/routes/_site.contact";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";
import { callAction, formRequest } from "./public-helpers";

// Before any module reads them: rate limiting on, two submissions per address and form.
vi.hoisted(() => {
  process.env.RATE_LIMIT = "on";
  process.env.FORM_RATE_LIMIT = "2";
});

// A fresh migrated database for this file (named apart from React hooks for the linter).
setupTestDatabase();

const contact = { intent: "contact", name: "Meera Das", email: "meera@example.com", message: "Hello" };
const enquiry = {
  intent: "enquiry",
  fullName: "Ravi Kumar",
  email: "ravi@example.com",
  phone: "9876543210",
  preferredCourse: "Cloud Security Practitioner",
  preferredMode: "online",
};

describe("public form rate limit", () => {
  it("answers 429 with Retry-After, the spec's values kept and RATE_LIMIT_MESSAGE, and stores nothing more", async () => {
    const ip = "198.51.100.20";
    for (let i = 0; i < 2; i++) expect((await callAction(contactAction, formRequest("/contact", contact), {}, ip)).body.status).toBe("success");
    const limited = await callAction(contactAction, formRequest("/contact", { ...contact, message: "Third try" }), {}, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.body.formError).toBe("Too many attempts. Please wait a few minutes and try again.");
    expect(limited.body.submission.initialValue).toMatchObject({ name: "Meera Das", message: "Third try" });
    expect((await listContactQueries()).total).toBe(2);
  });

  it("counts each address separately, and enquiries apart from contact messages", async () => {
    const ip = "198.51.100.21";
    for (let i = 0; i < 2; i++) await callAction(homeAction, formRequest("/?index", contact), {}, ip);
    expect((await callAction(homeAction, formRequest("/?index", enquiry), {}, ip)).body.status).toBe("success");
    expect((await callAction(homeAction, formRequest("/?index", contact), {}, "198.51.100.22")).body.status).toBe("success");
    expect((await pageEnquiries()).total).toBe(1);
  });

  it("counts invalid posts too, before the body is read: a flood of bad posts is throttled like good ones", async () => {
    const ip = "198.51.100.23";
    const before = (await listContactQueries()).total;
    for (let i = 0; i < 2; i++) expect((await callAction(contactAction, formRequest("/contact", { ...contact, email: "" }), {}, ip)).status).toBe(400);
    const limited = await callAction(contactAction, formRequest("/contact", contact), {}, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.submission.initialValue).toMatchObject({ name: "Meera Das" });
    expect((await listContactQueries()).total).toBe(before);
  });
});
