import type { Page } from "@playwright/test";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { expect, test } from "./fixtures";
import { ADMIN, startServer, type TestServer } from "./servers";

/**
 * A seat offered from a waitlist, taken as a visitor takes it: the link from the e-mail (read at a real SMTP
 * server) opened in Chromium, Accept or Decline clicked, with JavaScript off, on, and on but arriving 6 s late
 * (a slow phone pressing the button before the scripts). The page's referrer policy once made the browser post
 * `Origin: null`, which the cross-site check refused with a bare "Bad Request": curl-style tests could not see it.
 */
const OFFSET = 8;
let server: TestServer;
let smtp: SmtpSink;
let token = "";
let batchId = "";
let courseTitle = "";
const BATCH_DATE = "2032-02-02";
let n = 0;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startServer(OFFSET, { SMTP_URL: smtp.url, MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>", NOTIFY_EMAIL: "desk@cybersoc.test" });
  token = (
    await (await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) })).json()
  ).token;
  const course = (await api("GET", "/api/courses")).body.data[0];
  courseTitle = course.title;
  const batch = {
    course: course.id,
    startDate: BATCH_DATE,
    endDate: "2032-03-30",
    time: "7 PM",
    days: "Sat",
    mode: "online",
    location: "Online",
    totalSeats: 1,
  };
  batchId = (await api("POST", "/api/schedules", batch)).body.data.id;
  // Its one seat taken by an enrolment: seats are counted, never set.
  const holder = await api("POST", "/api/enquiries", {
    fullName: "Seat Holder",
    email: `holder.${Date.now()}@example.com`,
    phone: "9811111111",
    preferredCourse: courseTitle,
    preferredMode: "online",
    batchDate: BATCH_DATE,
  });
  expect((await api("PUT", `/api/enquiries/${holder.body.data.id}/status`, { status: "enrolled" })).status).toBe(200);
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Joins the full batch's waitlist, frees one seat, and returns the link of the offer e-mail sent to the joiner. */
async function offerFor(name: string): Promise<{ link: string; id: string }> {
  const email = `offer.${++n}.${Date.now()}@example.com`;
  // Full first (a declined offer gives its seat back when nobody else waits), so the enquiry joins the waitlist: the
  // total down to the seats taken.
  const full = (await api("GET", `/api/schedules/${batchId}`)).body.data;
  expect((await api("PUT", `/api/schedules/${batchId}`, { ...full, totalSeats: full.seatsTaken })).status).toBe(200);
  const joined = await fetch(`${server.url}/api/enquiries`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      fullName: name,
      email,
      phone: `98${String(10000000 + n).padStart(8, "0")}`,
      preferredCourse: courseTitle,
      preferredMode: "online",
      batchDate: BATCH_DATE,
    }),
  });
  expect(joined.status).toBe(201);
  const id = ((await joined.json()) as { data: { id: string } }).data.id;
  // One more seat in total: the seat goes to the first one waiting, this joiner (earlier ones hold or took theirs).
  const batch = (await api("GET", `/api/schedules/${batchId}`)).body.data;
  expect((await api("PUT", `/api/schedules/${batchId}`, { ...batch, course: batch.course, totalSeats: batch.totalSeats + 1 })).status).toBe(200);
  const [mail] = await smtp.waitFor((m) => m.envelope.to.includes(email) && /A seat is free for you/.test(m.parsed.subject ?? ""), 1, 30_000);
  const link = /https?:\/\/\S+\/waitlist\/offer\?token=[\w%-]+/.exec(mail.parsed.text ?? "")?.[0];
  expect(link).toBeTruthy();
  return { link: link!, id };
}

async function enquiryStatus(id: string): Promise<string> {
  return (await api("GET", `/api/enquiries/${id}`)).body.data.status;
}

async function expectOfferPage(page: Page) {
  await expect(page.getByRole("heading", { name: "A seat is held for you" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept the seat" })).toBeVisible();
}

for (const mode of ["off", "on", "slow"] as const) {
  test.describe(`JavaScript ${mode === "slow" ? "on, scripts 6 s late" : mode}`, () => {
    test.use({ javaScriptEnabled: mode !== "off", viewport: { width: 375, height: 740 } });

    test.beforeEach(async ({ page }) => {
      if (mode === "slow") {
        await page.route(/\/assets\/.*\.js$/, async (route) => {
          await new Promise((r) => setTimeout(r, 6_000));
          await route.continue();
        });
      }
    });

    test("the visitor accepts the offered seat and is enrolled, once", async ({ page }) => {
      const { link, id } = await offerFor(`Accepting ${mode}`);
      const posts: string[] = [];
      page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
      const response = await page.goto(link, { waitUntil: mode === "slow" ? "commit" : "load" });
      // Nothing of the token leaves in a Referer to another site; our own form still gets its origin.
      expect(response?.headers()["referrer-policy"]).toBe("same-origin");
      await expectOfferPage(page);
      await page.getByRole("button", { name: "Accept the seat" }).click();
      await expect(page.getByRole("heading", { name: "You are enrolled!" })).toBeVisible();
      await expect(page.getByText(`Your seat in this batch is confirmed, Accepting ${mode}.`)).toBeVisible();
      // A confirmation to keep: the fee, the reference staff can search for, and the batch in a calendar.
      await expect(page.getByTestId("offer-fee")).toHaveText(/^(Fee.*|Fee on request)$/);
      await expect(page.getByTestId("offer-reference")).toHaveText(`ENQ-${id.slice(0, 8).toUpperCase()}`);
      await expect(page.getByRole("link", { name: "Add to calendar (.ics)" })).toHaveAttribute("href", /^\/waitlist\/offer\.ics\?token=/);
      expect(await enquiryStatus(id)).toBe("enrolled");
      expect(posts).toHaveLength(1);
    });

    test("the visitor declines the offered seat and is told so", async ({ page }) => {
      const { link, id } = await offerFor(`Declining ${mode}`);
      await page.goto(link, { waitUntil: mode === "slow" ? "commit" : "load" });
      await expectOfferPage(page);
      await page.getByRole("button", { name: "Decline" }).click();
      // Asked first: nothing is given away by the first press.
      await expect(page.getByRole("heading", { name: "Give up your seat?" })).toBeVisible();
      expect(await enquiryStatus(id)).toBe("new");
      await page.getByRole("button", { name: "Yes, give up my seat" }).click();
      await expect(page.getByRole("heading", { name: "Seat declined" })).toBeVisible();
      await expect(page.getByText("You have declined the seat.")).toBeVisible();
      expect(await enquiryStatus(id)).not.toBe("enrolled");
    });
  });
}

test.describe("a refused post", () => {
  test.use({ javaScriptEnabled: false });
  test("a form posted from another site gets a page that says what to do, not a bare status", async ({ page }) => {
    // A page on another origin whose policy hides its origin (`Origin: null`), posting to the offer form.
    await page.route("http://elsewhere.test/", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<meta name="referrer" content="no-referrer"><form method="post" action="${server.url}/waitlist/offer"><input name="token" value="x"><button>Go</button></form>`,
      }),
    );
    await page.goto("http://elsewhere.test/");
    await page.getByRole("button", { name: "Go" }).click();
    await expect(page.getByRole("heading", { name: "We could not accept this form" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();
    await expect(page.getByText("call +91 98765 43210")).toBeVisible();
    expect(server.output()).toMatch(/403 POST \/waitlist\/offer: cross-site form post refused \(Origin: null/);
  });
});
