import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./env";

/** Signs in through the real login form (works with JavaScript on or off). */
export async function signIn(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/courses/);
}

/** A short random tag so rows made by one test (and one JavaScript mode) are told apart in the shared database. */
export function uniqueTag(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Sends an enquiry the way an integration would: the public JSON API. */
export async function postEnquiry(request: APIRequestContext, over: Record<string, unknown> = {}) {
  const res = await request.post("/api/enquiries", {
    data: { fullName: "E2E Student", email: "student@example.com", phone: "98765 43210", preferredCourse: "SOC Analyst Training Program", preferredMode: "online", message: "Weekend batch?", ...over },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data;
}

export async function postContactQuery(request: APIRequestContext, over: Record<string, unknown> = {}) {
  const res = await request.post("/api/contact-queries", {
    data: { name: "E2E Visitor", email: "visitor@example.com", phone: "+91 90000 11111", subject: "Weekend batch", message: "Do you run weekend batches?", ...over },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data;
}
