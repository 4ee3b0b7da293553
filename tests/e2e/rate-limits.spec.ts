import { expect, test } from "./fixtures";
import { type Page } from "@playwright/test";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * Throttling on a server of its own with small limits from the environment: the forms and sign-in answer
 * 429 with Retry-After, the forms say so in words and keep what was typed (JavaScript off), and a client
 * cannot reset its count by claiming another address while TRUST_PROXY is off.
 */
const RATE_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";
const LIMITS = {
  RATE_LIMIT: "on",
  FORM_RATE_LIMIT: "3",
  FORM_RATE_WINDOW: "600",
  LOGIN_RATE_LIMIT_ACCOUNT: "3",
  LOGIN_RATE_LIMIT_IP: "8",
  TRUST_PROXY: "false",
};

let server: TestServer;
test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  server = await startServer(1, LIMITS);
});
test.afterAll(async () => {
  await server?.stop();
});

const enquiry = (n: number) => ({
  fullName: `Rate Test ${n}`,
  email: `rate${n}@example.com`,
  phone: "9876543210",
  preferredCourse: "SOC Analyst Training Program",
  preferredMode: "online",
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
}

function expectRetryAfter(res: Response) {
  const retry = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retry) && retry > 0, `Retry-After: ${res.headers.get("retry-after")}`).toBe(true);
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("enquiries: the API answers 429 with Retry-After, and the /enquiry form shows why and keeps the values", async ({ page }) => {
    for (let i = 1; i <= 3; i++) expect((await post("/api/enquiries", enquiry(i))).status).toBe(201);
    const limited = await post("/api/enquiries", enquiry(4));
    expect(limited.status).toBe(429);
    expectRetryAfter(limited);
    expect((await limited.json()).error.message).toBe(RATE_MESSAGE);

    // Claiming to be someone else does not help while no proxy is trusted.
    expect((await post("/api/enquiries", enquiry(5), { "X-Forwarded-For": "203.0.113.9" })).status).toBe(429);

    // The first render after a start streams the lazily loaded form behind a script swap (reported to the
    // public-site owner); warm the module so this test is about throttling.
    await fetch(`${server.url}/enquiry`).then((r) => r.text());
    await page.goto(`${server.url}/enquiry`);
    const form = page.locator("form", { has: page.getByRole("button", { name: "Submit Registration" }) });
    await form.locator("[name=fullName]").fill("Meera Typed");
    await form.locator("[name=email]").fill("meera.typed@example.com");
    await form.locator("[name=phone]").fill("98765 43210");
    await form.locator("[name=preferredCourse]").selectOption({ label: "SOC Analyst Training Program" });
    await form.locator("[name=preferredMode]").selectOption("offline");
    await form.locator("[name=message]").fill("Please call after 6 pm");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      form.getByRole("button", { name: "Submit Registration" }).click(),
    ]);
    expect(response.status()).toBe(429);
    expectRetryAfter(new Response(null, { headers: await response.allHeaders() }));
    await expect(page.getByText(RATE_MESSAGE)).toBeVisible();
    const after = page.locator("form", { has: page.getByRole("button", { name: "Submit Registration" }) });
    await expect(after.locator("[name=fullName]")).toHaveValue("Meera Typed");
    await expect(after.locator("[name=email]")).toHaveValue("meera.typed@example.com");
    await expect(after.locator("[name=message]")).toHaveValue("Please call after 6 pm");
    await expect(after.locator("[name=preferredMode]")).toHaveValue("offline");
  });

  test("contact queries: the /contact form is limited too and keeps the values", async ({ page }) => {
    const message = { name: "Ravi", email: "ravi@example.com", message: "Hello" };
    for (let i = 1; i <= 3; i++) expect((await post("/api/contact-queries", message)).status).toBe(201);
    const limited = await post("/api/contact-queries", message);
    expect(limited.status).toBe(429);
    expectRetryAfter(limited);

    await page.goto(`${server.url}/contact`);
    const form = page.locator("form", { has: page.getByRole("button", { name: "Send Message" }) });
    await form.locator("[name=name]").fill("Ravi Typed");
    await form.locator("[name=email]").fill("ravi.typed@example.com");
    await form.locator("[name=message]").fill("Do you have weekend batches?");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      form.getByRole("button", { name: "Send Message" }).click(),
    ]);
    expect(response.status()).toBe(429);
    expect(Number(await response.headerValue("retry-after"))).toBeGreaterThan(0);
    await expect(page.getByText(RATE_MESSAGE)).toBeVisible();
    const after = page.locator("form", { has: page.getByRole("button", { name: "Send Message" }) });
    await expect(after.locator("[name=name]")).toHaveValue("Ravi Typed");
    await expect(after.locator("[name=message]")).toHaveValue("Do you have weekend batches?");
  });

  async function signIn(page: Page, email: string, password: string) {
    await page.goto(`${server.url}/admin/login`);
    await page.fill("[name=email]", email);
    await page.fill("[name=password]", password);
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: "Sign In" }).click()]);
    return response;
  }

  test("sign-in form: blocked after repeated failures for the account, even with the right password", async ({ page }) => {
    for (let i = 0; i < 3; i++) expect((await signIn(page, ADMIN.email, "wrong-password")).status()).toBe(401);
    const blocked = await signIn(page, ADMIN.email, ADMIN.password);
    expect(blocked.status()).toBe(429);
    expect(Number(await blocked.headerValue("retry-after"))).toBeGreaterThan(0);
    await expect(page.getByText(RATE_MESSAGE)).toBeVisible();
    await expect(page.locator("[name=email]")).toHaveValue(ADMIN.email);
    await expect(page.locator("[name=password]")).toHaveValue("");
  });
});

test("API sign-in: per account, then per IP across accounts, with Retry-After", async () => {
  const login = (email: string, password = "wrong-password") => post("/api/auth/login", { email, password });
  for (let i = 0; i < 3; i++) expect((await login("nobody@example.com")).status).toBe(401);
  const perAccount = await login("nobody@example.com");
  expect(perAccount.status).toBe(429);
  expectRetryAfter(perAccount);
  expect((await perAccount.json()).error.message).toBe(RATE_MESSAGE);
  // The admin account from this IP was already blocked by the form test: the API shares the count.
  expect((await login(ADMIN.email, ADMIN.password)).status).toBe(429);

  // Failures so far from this IP: 3 (form) + 3 (API) = 6 of 8. Two more on fresh accounts reach the IP limit.
  expect((await login("other1@example.com")).status).toBe(401);
  expect((await login("other2@example.com")).status).toBe(401);
  const perIp = await login("other3@example.com");
  expect(perIp.status).toBe(429);
  expectRetryAfter(perIp);
});
