/**
 * How fast are the back office's enquiry screens with 100,000 enquiries? (DESIGN.md §6)
 *
 *   npx tsx scripts/bench-enquiries.ts [count]
 *
 * Fills a temporary SQLite database (batch inserts in one transaction) with enquiries spread over owners,
 * follow-ups, sources, courses and modes, signs in a staff member, and times the real route loaders (session
 * check, filters/page in SQL, count): the list with each filter, the dashboard, and a full CSV export (with its
 * peak memory). A measurement, not a test: it prints numbers and never fails on them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const COUNT = Number(process.argv[2] ?? 100_000);
const RUNS = 7;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-enquiries-"));
Object.assign(process.env, {
  NODE_ENV: "production",
  DATABASE_URL: `file:${path.join(dir, "bench.db")}`,
  UPLOAD_DIR: path.join(dir, "uploads"),
  SESSION_SECRET: "bench-secret-0123456789-0123456789-0123456789",
  SEED_DEMO: "false",
});

// Imported after the environment is set: the modules read it when first used.
const { openDb, db, migrateToLatest, closeDb } = await import("~db/client.server");
const { getUserWithSecret } = await import("~/models/user.server");
const { createUserWithoutActor } = await import("~/services/users.server");
const { createUserSession } = await import("~/web/session.server");
const { loader } = await import("~/routes/admin.enquiries");
const { loader: dashboard } = await import("~/routes/admin.dashboard");
const { loader: exportCsv } = await import("~/routes/admin.enquiries.export[.]csv");

const FIRST = ["Ravi", "Priya", "Arjun", "Sneha", "Kiran", "Fatima", "Vikram", "Ananya", "Rahul", "Meera", "Imran", "Divya"];
const LAST = ["Kumar", "Reddy", "Varma", "Kulkarni", "Das", "Khan", "Rao", "Iyer", "Menon", "Nair", "Shaikh", "Sharma"];
const COURSES = [
  "SOC Analyst Training Program",
  "Cybersecurity Fundamentals",
  "Penetration Testing and Ethical Hacking",
  "Network Security Specialist",
  "Cloud Security Practitioner",
];
const STATUSES = ["new", "contacted", "enrolled", "closed"];
const MODES = ["online", "offline", "hybrid"];

const SOURCES = [
  { utmSource: "google", utmMedium: "cpc", utmCampaign: "jan-batch", referrer: "https://www.google.com/", sourceLabel: "google" },
  { utmSource: null, utmMedium: null, utmCampaign: null, referrer: "https://www.instagram.com/", sourceLabel: "instagram.com" },
  { utmSource: null, utmMedium: null, utmCampaign: null, referrer: null, sourceLabel: "direct" },
  { utmSource: "newsletter", utmMedium: "email", utmCampaign: "dec", referrer: null, sourceLabel: "newsletter" },
];
const FORMS = ["home", "enquiry-page", "api"];
let staffIds: string[] = [];

async function fill() {
  const start = performance.now();
  const t0 = Date.parse("2025-01-01T00:00:00Z");
  const BATCH = 1000; // 25 columns × 1000 rows stays under SQLite's bound-parameter limit (32,766)
  void t0;
  await db()
    .transaction()
    .execute(async (trx) => {
      for (let from = 0; from < COUNT; from += BATCH) {
        const rows = [];
        for (let i = from; i < Math.min(COUNT, from + BATCH); i++) {
          // Spread over the last ~70 days, so the dashboard's windows (12 weeks, 30 and 90 days) all see rows.
          const at = new Date(Date.now() - (COUNT - i) * 60_000).toISOString();
          const status = STATUSES[(i * 13) % STATUSES.length];
          const source = SOURCES[i % SOURCES.length];
          const mobile = `9${String(100000000 + ((i * 7919) % 900000000)).padStart(9, "0")}`;
          // Typed the way people type them; the search column holds the digits only (migration 0003).
          const phone = `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`;
          rows.push({
            id: `bench-${String(i).padStart(7, "0")}`,
            fullName: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i}`,
            email: `student${i}@example.com`,
            phone,
            phoneDigits: phone.replace(/\D/g, ""),
            preferredCourse: COURSES[i % COURSES.length],
            preferredMode: MODES[i % MODES.length],
            message: "Is there a weekend batch?",
            whatsappNotifications: i % 3 === 0 ? 0 : 1,
            filePaths: "[]",
            status,
            createdAt: at,
            updatedAt: at,
            assigneeId: i % 4 === 3 ? null : staffIds[i % staffIds.length],
            followUpAt: i % 5 === 0 ? new Date(Date.now() + ((i % 11) - 5) * 6 * 3_600_000).toISOString() : null,
            scheduleId: null,
            utmSource: source.utmSource,
            utmMedium: source.utmMedium,
            utmCampaign: source.utmCampaign,
            referrer: source.referrer,
            sourceForm: FORMS[i % FORMS.length],
            sourceLabel: source.sourceLabel,
            firstStatusChangeAt: status === "new" ? null : at,
            possibleDuplicate: i % 50 === 0 ? 1 : 0,
          });
        }
        await trx.insertInto("enquiries").values(rows).execute();
      }
    });
  return performance.now() - start;
}

async function time(label: string, search: string, cookie: string) {
  const call = async () => {
    const request = new Request(`http://localhost/admin/enquiries${search}`, { headers: { Cookie: cookie } });
    return (await loader({ request, params: {}, context: { cspNonce: "", clientIp: "127.0.0.1" } } as never)) as {
      list: { total: number; page: number; pages: number; data: unknown[] };
    };
  };
  const warm = await call();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  const { total, page, pages, data } = warm.list;
  console.log(
    `${label.padEnd(34)} ${search.padEnd(36)} median ${median.toFixed(1).padStart(6)} ms   max ${samples.at(-1)!.toFixed(1).padStart(6)} ms   ` +
      `(${data.length} rows of ${total}, page ${page}/${pages})`,
  );
  return warm.list;
}

try {
  await openDb(process.env.DATABASE_URL!);
  await migrateToLatest(db());
  await createUserWithoutActor({ name: "Bench Editor", email: "bench@example.com", password: "bench-password-123", role: "editor" });
  for (const name of ["Priya", "Arjun"])
    await createUserWithoutActor({ name, email: `${name.toLowerCase()}@example.com`, password: "bench-password-123", role: "editor" });
  staffIds = (await db().selectFrom("users").select("id").execute()).map((u) => u.id);
  const fillMs = await fill();
  console.log(`Filled ${COUNT.toLocaleString("en-US")} enquiries in ${(fillMs / 1000).toFixed(1)} s (SQLite, ${dir})`);

  const user = (await getUserWithSecret({ email: "bench@example.com" }))!;
  const login = await createUserSession(new Request("http://localhost/admin/login"), user, "/admin");
  const cookie = login.headers.get("Set-Cookie")!.split(";")[0];

  console.log(`Server time of the Manage Enquiries loader (median and max of ${RUNS} runs after one warm-up):`);
  const all = await time("All Enquiries, first page", "", cookie);
  await time("All Enquiries, last page", `?page=${all.pages}`, cookie);
  const contacted = await time("Contacted tab, first page", "?status=contacted", cookie);
  await time("Contacted tab, last page", `?status=contacted&page=${contacted.pages}`, cookie);
  const byName = await time("Search by name, first page", "?q=Priya", cookie);
  await time("Search by name, last page", `?q=Priya&page=${byName.pages}`, cookie);
  await time("Search by e-mail (one match)", "?q=student99999%40example.com", cookie);
  await time("Search by phone digits", "?q=91234", cookie);
  await time("Closed tab + search", "?status=closed&q=Sneha", cookie);
  await time("Mine, first page", "?assignee=mine", cookie);
  await time("Unassigned", "?assignee=none", cookie);
  await time("A named owner, last page", `?assignee=${staffIds[1]}&page=1000`, cookie);
  await time("Follow-up due today", "?followUp=due", cookie);
  await time("Follow-up overdue", "?followUp=overdue", cookie);
  await time("No follow-up", "?followUp=none", cookie);
  await time("Course", `?course=${encodeURIComponent(COURSES[2])}`, cookie);
  await time("Mode", "?mode=hybrid", cookie);
  await time("Source", "?source=instagram.com", cookie);
  await time("Form", "?form=api", cookie);
  await time(
    "Date range (one week)",
    `?from=${new Date(Date.now() - 14 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)}`,
    cookie,
  );
  await time("Mine + overdue + source + course", `?assignee=mine&followUp=overdue&source=google&course=${encodeURIComponent(COURSES[0])}`, cookie);

  const context = { cspNonce: "", clientIp: "127.0.0.1" };
  if (process.env.BENCH_DASHBOARD_PARTS) {
    const m = await import("~/models/enquiry.server");
    const f = await import("~/services/pipeline-figures.server");
    const now = new Date();
    const since = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
    for (const [label, run] of [
      ["unanswered", () => m.countUnansweredSince(since(1))],
      ["weekly", () => f.enquiriesPerWeek(now)],
      ["funnel 90", () => f.funnel(90, now)],
      ["by course", () => m.countByColumnSince("preferredCourse", since(90))],
      ["by source", () => m.countByColumnSince("sourceLabel", since(90))],
      ["count new", () => m.countEnquiries("new")],
      ["recent", () => m.listEnquiries({ limit: 5 })],
    ] as const) {
      const t = performance.now();
      for (let i = 0; i < 5; i++) await (run as () => Promise<unknown>)();
      console.log(`  dashboard part ${label}: ${((performance.now() - t) / 5).toFixed(1)} ms`);
    }
  }
  const dashSamples: number[] = [];
  await dashboard({ request: new Request("http://localhost/admin/dashboard", { headers: { Cookie: cookie } }), params: {}, context } as never);
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await dashboard({ request: new Request("http://localhost/admin/dashboard", { headers: { Cookie: cookie } }), params: {}, context } as never);
    dashSamples.push(performance.now() - start);
  }
  dashSamples.sort((a, b) => a - b);
  console.log(`${"Dashboard".padEnd(71)} median ${dashSamples[3].toFixed(1).padStart(6)} ms   max ${dashSamples.at(-1)!.toFixed(1).padStart(6)} ms`);

  // The whole list as CSV, read to the end the way a browser downloads it; peak memory sampled meanwhile.
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = performance.now();
  const response = (await exportCsv({
    request: new Request("http://localhost/admin/enquiries/export.csv", { headers: { Cookie: cookie } }),
    params: {},
    context,
  } as never)) as Response;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const b of chunk) if (b === 10) lines++;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `CSV export of all ${COUNT.toLocaleString("en-US")}: ${((performance.now() - start) / 1000).toFixed(2)} s, ${(bytes / 1048576).toFixed(1)} MB, ${lines} lines; ` +
      `memory: ${(baseline / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB (+${((peak - baseline) / 1048576).toFixed(0)} MB)`,
  );
} finally {
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
}
