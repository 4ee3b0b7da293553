import { expect, fieldMessage, holdRequests, test, unique } from "./fixtures";
import { type APIRequestContext, type Locator } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./env";

/**
 * The public forms in a real browser, with JavaScript off (plain POST, server validation, re-render) and on
 * (client validation, pending state, success panel). Storage is checked through the JSON API as staff.
 */

async function staffGet(request: APIRequestContext, path: string) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(login.ok()).toBe(true);
  const { token } = await login.json();
  const res = await request.get(path, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()).data as Record<string, unknown>[];
}

/** Starts to use the form, the way a visitor does, and waits for its code (fetched on first use) to hydrate it. */
async function enhanced(form: Locator) {
  await form.locator("input[name=email]").focus();
  await expect(form).toHaveAttribute("data-enhanced", "");
}

async function fillEnquiry(form: Locator, name: string) {
  await form.getByLabel("Full Name").fill(name);
  await form.getByLabel("Email").fill("ravi.kumar@example.com");
  await form.getByLabel("Phone Number").fill("98765 43210");
  await form.getByLabel("Preferred Course").selectOption("Cloud Security Practitioner");
  await form.getByLabel("Preferred Mode").selectOption("hybrid");
}

const ENQUIRY_MESSAGES = ["Full name is required", "Email is required", "Phone number is required", "Please select a course", "Please select preferred mode"];

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("home enquiry: messages word for word, typed values kept, then stored with the success panel", async ({ page, request }) => {
    await page.goto("/");
    const form = page.locator("#enquiry-home-form");
    await form.getByLabel("Full Name").fill("Ravi");
    await form.getByLabel("Email").fill("ravi@");
    await form.getByRole("button", { name: "Submit Enquiry" }).click();
    // Back at the form (by its fragment), under an error summary that links each message, titled "Error: …".
    await expect(page).toHaveURL(/\/\?index#enquiry-home-form-panel$/);
    await expect(page).toHaveTitle(/^Error: /);
    const again = page.locator("#enquiry-home-form");
    const summary = page.getByRole("alert").filter({ has: page.getByRole("heading", { name: "There is a problem" }) });
    await expect(summary.getByRole("link", { name: "Valid email is required" })).toHaveAttribute("href", /^#/);
    await expect(fieldMessage(again, "Valid email is required")).toBeVisible();
    for (const message of ENQUIRY_MESSAGES.slice(2)) await expect(fieldMessage(again, message)).toBeVisible();
    await expect(again.getByLabel("Full Name")).toHaveValue("Ravi");
    await expect(again.getByLabel("Email")).toHaveValue("ravi@");
    await expect(again.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(again.getByLabel("Email")).toHaveAttribute("aria-describedby", /\S+/);

    const name = unique("Ravi NoJS");
    await fillEnquiry(again, name);
    await again.getByLabel("Send me batch updates and notifications on WhatsApp").uncheck();
    await again.getByRole("button", { name: "Submit Enquiry" }).click();
    await expect(page.getByRole("heading", { name: "Enquiry Submitted!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Submit Another Enquiry" })).toHaveAttribute("href", "/#enquiry-section");

    const stored = (await staffGet(request, "/api/enquiries?limit=100")).find((e) => e.fullName === name);
    expect(stored).toMatchObject({
      email: "ravi.kumar@example.com",
      phone: "9876543210",
      preferredCourse: "Cloud Security Practitioner",
      preferredMode: "hybrid",
      whatsappNotifications: false,
      status: "new",
    });
  });

  test("/contact: messages, kept values, stored row and success panel", async ({ page, request }) => {
    await page.goto("/contact");
    const form = page.locator("#contact-form");
    await form.getByLabel("Subject (optional)").fill("Fees");
    await form.getByRole("button", { name: "Send Message" }).click();
    for (const message of ["Name is required", "Email is required", "Message is required"]) await expect(fieldMessage(page, message)).toBeVisible();
    await expect(page.locator("#contact-form").getByLabel("Subject (optional)")).toHaveValue("Fees");

    const name = unique("Meera NoJS");
    const again = page.locator("#contact-form");
    await again.getByLabel("Name").fill(name);
    await again.getByLabel("Email").fill("meera@example.com");
    await again.getByLabel("Message").fill("What are the fees for the SOC batch?");
    await again.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
    const stored = (await staffGet(request, "/api/contact-queries?limit=100")).find((q) => q.name === name);
    expect(stored).toMatchObject({ email: "meera@example.com", subject: "Fees", message: "What are the fees for the SOC batch?", status: "new" });
  });

  test("/enquiry registration with an attachment, preselected from ?course=&date=", async ({ page, request }) => {
    await page.goto("/enquiry?course=Network%20Security%20Specialist&date=2027-01-05");
    const form = page.locator("#enquiry-page-form");
    await expect(form.getByLabel("Preferred Course")).toHaveValue("Network Security Specialist");
    await expect(form.getByLabel("Message (optional)")).toHaveValue("I would like to join the batch starting Jan 5, 2027.");
    await expect(form.getByLabel("Send me batch updates and notifications on WhatsApp")).toBeChecked();
    const name = unique("Anil NoJS");
    await form.getByLabel("Full Name").fill(name);
    await form.getByLabel("Email").fill("anil@example.com");
    await form.getByLabel("Phone Number").fill("(912) 345-6789");
    await form.getByLabel("Preferred Mode").selectOption("offline");
    await form
      .getByLabel("Attachments (optional)")
      .setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
    await form.getByRole("button", { name: "Submit Registration" }).click();
    await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Homepage" })).toHaveAttribute("href", "/");
    const stored = (await staffGet(request, "/api/enquiries?limit=100")).find((e) => e.fullName === name);
    expect(stored).toMatchObject({ preferredCourse: "Network Security Specialist", preferredMode: "offline", whatsappNotifications: true });
    expect(stored?.filePaths as string[]).toHaveLength(1);
  });

  test("/enquiry refuses a file of the wrong type with the spec's message and keeps the typed values", async ({ page }) => {
    await page.goto("/enquiry");
    const form = page.locator("#enquiry-page-form");
    await fillEnquiry(form, "Wrong File");
    await form.getByLabel("Attachments (optional)").setInputFiles({ name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ....") });
    await form.getByRole("button", { name: "Submit Registration" }).click();
    await expect(fieldMessage(page, "Please attach PDF, DOC, DOCX, JPG or PNG files only")).toBeVisible();
    await expect(page.locator("#enquiry-page-form").getByLabel("Full Name")).toHaveValue("Wrong File");
  });
});

test.describe("JavaScript on", () => {
  test("home enquiry: client-side messages, each cleared when its field is edited, Submitting state, success and reset", async ({ page, request }) => {
    await page.goto("/");
    const form = page.locator("#enquiry-home-form");
    await enhanced(form);
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST") posts++;
    });
    await form.getByRole("button", { name: "Submit Enquiry" }).click();
    for (const message of ENQUIRY_MESSAGES) await expect(fieldMessage(form, message)).toBeVisible();
    expect(posts).toBe(0);
    await form.getByLabel("Full Name").pressSequentially("R");
    await expect(fieldMessage(form, "Full name is required")).toHaveCount(0);
    await expect(fieldMessage(form, "Email is required")).toBeVisible();

    const name = unique("Ravi JS");
    await fillEnquiry(form, name);
    for (const message of ENQUIRY_MESSAGES) await expect(fieldMessage(form, message)).toHaveCount(0);
    const release = await holdRequests(page, "**/*.data*");
    await form.getByRole("button", { name: "Submit Enquiry" }).click();
    await expect(form.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    release();
    await expect(page.getByRole("heading", { name: "Enquiry Submitted!" })).toBeVisible();
    expect(page.url()).not.toContain("index");
    const stored = (await staffGet(request, "/api/enquiries?limit=100")).find((e) => e.fullName === name);
    expect(stored).toMatchObject({ preferredMode: "hybrid", whatsappNotifications: true });

    await page.getByRole("link", { name: "Submit Another Enquiry" }).click();
    const fresh = page.locator("#enquiry-home-form");
    await expect(fresh.getByLabel("Full Name")).toHaveValue("");
    await expect(fresh.getByRole("button", { name: "Submit Enquiry" })).toBeEnabled();
  });

  // The home page has one form (issue 27): its contact section links here.
  test("/contact: Sending state, stored, success panel with reset", async ({ page, request }) => {
    await page.goto("/contact");
    const form = page.locator("#contact-form");
    await enhanced(form);
    await form.getByLabel("Email").fill("not-an-email");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(fieldMessage(form, "Valid email is required")).toBeVisible();
    await expect(fieldMessage(form, "Name is required")).toBeVisible();
    await form.getByLabel("Email").fill("meera@example.com");
    await expect(fieldMessage(form, "Valid email is required")).toHaveCount(0);
    const name = unique("Meera JS");
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Message").fill("Call me about weekend batches");
    const release = await holdRequests(page, "**/*.data*");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByRole("button", { name: "Sending..." })).toBeDisabled();
    release();
    await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
    // The panel takes focus so a screen reader announces the outcome.
    await expect(page.getByRole("status").filter({ hasText: "Message Sent!" })).toBeFocused();
    const stored = (await staffGet(request, "/api/contact-queries?limit=100")).find((q) => q.name === name);
    expect(stored).toMatchObject({ message: "Call me about weekend batches" });
    await page.getByRole("link", { name: "Send Another Message" }).click();
    await expect(page.locator("#contact-form").getByLabel("Name")).toHaveValue("");
  });

  test("/enquiry: Processing state, attachment checked in the browser first, Return to Homepage", async ({ page, request }) => {
    await page.goto("/enquiry?course=cloud-security-practitioner");
    const form = page.locator("#enquiry-page-form");
    await enhanced(form);
    await expect(form.getByLabel("Preferred Course")).toHaveValue("Cloud Security Practitioner");
    const name = unique("Anil JS");
    await fillEnquiry(form, name);
    const files = [1, 2, 3, 4].map((n) => ({ name: `cv${n}.pdf`, mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") }));
    await form.getByLabel("Attachments (optional)").setInputFiles(files);
    await expect(fieldMessage(form, "You can attach up to 3 files")).toBeVisible();
    await form.getByLabel("Attachments (optional)").setInputFiles(files.slice(0, 2));
    await expect(fieldMessage(form, "You can attach up to 3 files")).toHaveCount(0);
    const release = await holdRequests(page, "**/*.data*");
    await form.getByRole("button", { name: "Submit Registration" }).click();
    await expect(form.getByRole("button", { name: "Processing..." })).toBeDisabled();
    release();
    await expect(page.getByRole("heading", { name: "Registration Successful!" })).toBeVisible();
    const stored = (await staffGet(request, "/api/enquiries?limit=100")).find((e) => e.fullName === name);
    expect(stored?.filePaths as string[]).toHaveLength(2);
    await page.getByRole("link", { name: "Return to Homepage" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("/enquiry: a file the server refuses by its content shows why, and choosing files again clears it", async ({ page }) => {
    await page.goto("/enquiry");
    const form = page.locator("#enquiry-page-form");
    await enhanced(form);
    await fillEnquiry(form, unique("Renamed File"));
    // Named like a PDF, so the browser's check lets it through; the server looks at the bytes.
    await form.getByLabel("Attachments (optional)").setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("just some text") });
    await form.getByRole("button", { name: "Submit Registration" }).click();
    const message = fieldMessage(form, "Please attach PDF, DOC, DOCX, JPG or PNG files only");
    await expect(message).toBeVisible();
    await form
      .getByLabel("Attachments (optional)")
      .setInputFiles({ name: "resume.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
    await expect(message).toHaveCount(0);
    await expect(form.getByLabel("Attachments (optional)")).not.toHaveAttribute("aria-invalid", "true");
  });

  test("the form's code loads only once the form is used; a submit sent before it arrives waits for it and is checked in the browser", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST") posts++;
    });
    await page.goto("/contact", { waitUntil: "networkidle" });
    await page.waitForTimeout(300);
    const form = page.locator("#contact-form");
    await expect(form).not.toHaveAttribute("data-enhanced", "");
    expect(scripts.filter((s) => /contact-form|form-submission|fields/.test(s))).toEqual([]);
    // Slow the form's code down, so the submit surely comes first; submitted with no focus or tap before it.
    await page.route(/\/assets\/contact-form-.*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 500));
      await route.continue();
    });
    await form.evaluate((f: HTMLFormElement) => f.requestSubmit());
    await expect(fieldMessage(form, "Name is required")).toBeVisible();
    await expect(form).toHaveAttribute("data-enhanced", "");
    expect(posts).toBe(0);
    expect(page.url()).toMatch(/\/contact$/);
  });

  test("a form focused before the page's JavaScript arrives: every form on the page gets its code", async ({ page }) => {
    // Hold the page's modules back, so the visitor is in the form before any listener exists.
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await page.locator("#enquiry-home-form input[name=email]").focus();
    await expect(page.locator("#enquiry-home-form")).toHaveAttribute("data-enhanced", "", { timeout: 15_000 });
  });

  test("values typed while the form's code is on its way are kept when it arrives", async ({ page }) => {
    await page.route(/\/assets\/enquiry-form-.*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto("/enquiry", { waitUntil: "networkidle" });
    const form = page.locator("#enquiry-page-form");
    await form.getByLabel("Full Name").fill("Early Typist");
    await form.getByLabel("Email").fill("early@example.com");
    await expect(form).toHaveAttribute("data-enhanced", "");
    await expect(form.getByLabel("Full Name")).toHaveValue("Early Typist");
    await expect(form.getByLabel("Email")).toHaveValue("early@example.com");
  });

  test("a lost connection shows the contact failure message and keeps the typed values", async ({ page }) => {
    await page.goto("/contact");
    const form = page.locator("#contact-form");
    await enhanced(form);
    await form.getByLabel("Name").fill("Offline Visitor");
    await form.getByLabel("Email").fill("offline@example.com");
    await form.getByLabel("Message").fill("Hello");
    await page.route("**/*.data*", (route) => route.abort());
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Failed to submit message. Please try again.")).toBeVisible();
    await expect(form.getByLabel("Name")).toHaveValue("Offline Visitor");
  });
});
