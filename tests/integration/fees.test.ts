import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOutboxPass } from "~/infra/outbox-worker.server";
import { issueToken } from "~/web/token.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { getUserWithSecret } from "~/models/user.server";
import { action as apiCoursesAction } from "~/routes/api.courses";
import { action as apiCourseAction } from "~/routes/api.courses.$id";
import { loader as apiSchedulesLoader } from "~/routes/api.schedules";
import { action as newScheduleAction } from "~/routes/admin.schedules.new";
import { loader as coursePageLoader } from "~/routes/_site.courses.$slug";
import { loader as enquiryLoader } from "~/routes/_site.enquiry";
import { FEE_MESSAGE } from "~/schemas/fee";
import { FEE_ON_REQUEST } from "~/schemas/fee-text";
import { setEnquiryStatus } from "~/services/enquiries.server";
import { createUserWithoutActor } from "~/services/users.server";
import type { StaffActor } from "~/services/actor";
import { feeText } from "~/util/fee";
import { useTestDatabase } from "../helpers/db";
import { startSmtpSink } from "../helpers/smtp-sink";
import { makeRequest, run, staffCookie } from "./admin-route-helpers";
import { callRoute, getRequest } from "./public-helpers";

/**
 * Fees (issue 27, item 4): a course's fee with or without GST and a batch's own price, set through the API and
 * the admin form, shown on the course page (and its JSON-LD offer), the enquiry form and the enrolment e-mail;
 * a course without one says "Fee on request", never ₹0.
 */
const smtp = await startSmtpSink();
Object.assign(process.env, {
  SMTP_URL: smtp.url,
  MAIL_FROM: "CyberSOC Academy <no-reply@cybersoc.test>",
  PUBLIC_URL: "https://academy.example",
  TRUST_PROXY: "true",
});

useTestDatabase();
afterAll(async () => {
  await smtp.stop();
});

let token = "";
let actor: StaffActor;
let cookie = "";
beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Fee Admin", email: "fee.admin@staff.test", password: "long-enough-password", role: "admin" });
  actor = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  token = await issueToken((await getUserWithSecret({ id: u.id }))!);
  cookie = await staffCookie("editor");
});

const json = (path: string, method: string, body: unknown) =>
  new Request(`http://localhost${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

const ldOf = (seo: Record<string, unknown>[]) => seo.filter((t) => "script:ld+json" in t).map((t) => t["script:ld+json"] as Record<string, unknown>);

let paid: { id: string; slug: string };
let free: { id: string; slug: string };
let batchId = "";
describe("fees", () => {
  it("the API sets a course's fee and GST, refuses ₹0 and keeps the fee when a save leaves it out", async () => {
    const created = await callRoute(
      apiCoursesAction,
      json("/api/courses", "POST", {
        title: "SOC Analyst Training Program",
        category: "beginner",
        description: "Job-ready SOC skills",
        fee: 45000,
        feeIncludesGst: false,
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ fee: 45000, feeIncludesGst: false });
    paid = created.body.data;

    const zero = await callRoute(apiCoursesAction, json("/api/courses", "POST", { title: "Zero", category: "beginner", description: "x", fee: 0 }));
    expect(zero.status).toBe(400);
    expect(zero.body.error.fields.fee).toBe(FEE_MESSAGE);

    const none = await callRoute(
      apiCoursesAction,
      json("/api/courses", "POST", { title: "Cloud Security Practitioner", category: "advanced", description: "Cloud" }),
    );
    expect(none.status).toBe(201);
    expect(none.body.data).toMatchObject({ fee: null, feeIncludesGst: true });
    free = none.body.data;

    const kept = await callRoute(
      apiCourseAction,
      json(`/api/courses/${paid.id}`, "PUT", { title: "SOC Analyst Training Program", category: "beginner", description: "Still job-ready" }),
      { id: paid.id },
    );
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ fee: 45000, feeIncludesGst: false, description: "Still job-ready" });
  });

  it("the admin schedule form takes a batch's own price with its label; the API shows it beside the course's", async () => {
    const form = {
      course: paid.id,
      startDate: "2027-01-04",
      endDate: "2027-03-31",
      time: "7:00 PM - 9:00 PM",
      days: "Mon, Wed, Fri",
      mode: "online",
      location: "Live online (Zoom)",
      seats: "10",
      totalSeats: "20",
    };
    const bad = await run(newScheduleAction, makeRequest("/admin/schedules/new", { cookie, form: { ...form, fee: "0" } }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(FEE_MESSAGE);

    const saved = await run(newScheduleAction, makeRequest("/admin/schedules/new", { cookie, form: { ...form, fee: "₹39,000", feeLabel: "Early-bird" } }));
    expect(saved.status).toBe(302);
    await run(newScheduleAction, makeRequest("/admin/schedules/new", { cookie, form: { ...form, startDate: "2027-02-01", fee: "" } }));

    const list = await callRoute(apiSchedulesLoader, getRequest("/api/schedules"));
    const rows = (list.body.data as Record<string, unknown>[]).sort((a, b) => String(a.startDate).localeCompare(String(b.startDate)));
    expect(rows.map((r) => [r.startDate, r.fee, r.feeLabel, r.courseFee, r.feeIncludesGst])).toEqual([
      ["2027-01-04", 39000, "Early-bird", 45000, false],
      ["2027-02-01", null, "", 45000, false],
    ]);
    batchId = String(rows[0].id);
  });

  it("the course page's JSON-LD offer carries the price in INR; a course without a fee has no price", async () => {
    const page = await callRoute(coursePageLoader, getRequest(`/courses/${paid.slug}`), { slug: paid.slug });
    const course = ldOf(page.body.seo).find((b) => b["@type"] === "Course")!;
    expect(course.offers).toEqual([expect.objectContaining({ "@type": "Offer", price: 45000, priceCurrency: "INR", category: "Paid" })]);
    const instances = course.hasCourseInstance as Record<string, unknown>[];
    expect(instances.map((i) => i.offers ?? null)).toEqual([[{ "@type": "Offer", category: "Paid", price: 39000, priceCurrency: "INR" }], null]);
    expect(page.body.course).toMatchObject({ fee: 45000, feeIncludesGst: false });

    const other = await callRoute(coursePageLoader, getRequest(`/courses/${free.slug}`), { slug: free.slug });
    const offer = (ldOf(other.body.seo).find((b) => b["@type"] === "Course")!.offers as Record<string, unknown>[])[0];
    expect(offer).not.toHaveProperty("price");
    expect(offer).not.toHaveProperty("priceCurrency");
  });

  it("the enquiry form knows each course's fee, and the batch's own price when an Enroll Now chose one", async () => {
    const plain = await callRoute(enquiryLoader, getRequest("/enquiry"));
    expect(plain.body.fees).toEqual({ "SOC Analyst Training Program": "Fee: ₹45,000 + GST", "Cloud Security Practitioner": FEE_ON_REQUEST });
    const batch = await callRoute(enquiryLoader, getRequest("/enquiry?course=SOC+Analyst+Training+Program&date=2027-01-04&mode=online"));
    expect(batch.body.fees["SOC Analyst Training Program"]).toBe("Early-bird: ₹39,000 + GST");
  });

  it("never ₹0: no fee, or zero, reads Fee on request", () => {
    expect(feeText(null)).toBe("Fee on request");
    expect(feeText({ amount: 0, includesGst: true, label: "" })).toBe("Fee on request");
    expect(feeText({ amount: 125000, includesGst: true, label: "" })).toBe("₹1,25,000 (incl. GST)");
  });

  it("the enrolment e-mail states the batch's fee", async () => {
    const e = await insertEnquiry({
      fullName: "Ravi Fee",
      email: "ravi.fee@example.com",
      phone: "9876543210",
      preferredCourse: "SOC Analyst Training Program",
      preferredMode: "online",
      message: "",
      scheduleId: batchId,
    });
    await setEnquiryStatus(actor, e.id, { status: "enrolled" });
    for (let i = 0; i < 20 && (await runOutboxPass(() => {})) > 0; i++);
    const [mail] = await smtp.waitFor((m) => m.envelope.to.includes(e.email) && /Enrolment confirmed/.test(m.parsed.subject ?? ""));
    expect(mail.parsed.text).toContain("Fee: ₹39,000 + GST, Early-bird");
    expect(mail.parsed.html).toContain("₹39,000 + GST, Early-bird");
  });
});
