/**
 * How fast are the back office's enquiry screens with 100,000 enquiries? (DESIGN.md §6, issue 30)
 *
 *   npx tsx scripts/bench-enquiries.ts [count] [--quick]
 *   DATABASE_URL=mysql://root@127.0.0.1:3306 npx tsx scripts/bench-enquiries.ts   (MariaDB/MySQL)
 *
 * Fills a new database (SQLite in a temporary folder; with a mysql:// DATABASE_URL, a database of its own on that
 * server, dropped at the end) with enquiries spread over owners, follow-ups, sources, courses and modes, signs in
 * a staff member, and times the real route loaders (session check, filters/page in SQL, count): the list with each
 * filter and combination the screen offers, the dashboard, /api/enquiries with its filters, and a full CSV export
 * (with its peak memory). Prints one table (median and max of 7 runs after a warm-up) and the query plan (EXPLAIN)
 * of each list query in the default order, flagging a full scan or a temporary sort. `--quick` (1,000 rows, one
 * run) is what CI runs (tests/integration/scripts-run.test.ts) so the script cannot rot. A measurement, not a
 * test: it never fails on the numbers. `--keep` leaves the SQLite file (or MySQL database) for a closer look.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const QUICK = args.includes("--quick");
const COUNT = Number(args.find((a) => /^\d+$/.test(a)) ?? (QUICK ? 1000 : 100_000));
const RUNS = QUICK ? 1 : 7;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-enquiries-"));
const serverUrl = process.env.DATABASE_URL?.startsWith("mysql://") ? process.env.DATABASE_URL : null;
const mysqlName = `bench_enquiries_${process.pid}`;
let databaseUrl = `file:${path.join(dir, "bench.db")}`;
if (serverUrl) {
  const { createConnection } = await import("mysql2/promise");
  const admin = await createConnection({ uri: serverUrl });
  await admin.query(`create database \`${mysqlName}\` character set utf8mb4`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${mysqlName}`;
  databaseUrl = u.toString();
}
Object.assign(process.env, {
  NODE_ENV: "production",
  DATABASE_URL: databaseUrl,
  UPLOAD_DIR: path.join(dir, "uploads"),
  BACKUP_DIR: path.join(dir, "backups"),
  SESSION_SECRET: "bench-secret-0123456789-0123456789-0123456789",
  SEED_DEMO: "false",
});
const engine = serverUrl ? "MariaDB/MySQL" : "SQLite";

// Imported after the environment is set: the modules read it when first used.
const { openDb, db, migrateToLatest, closeDb, dialect } = await import("~db/client.server");
const { getUserWithSecret } = await import("~/models/user.server");
const { createUserWithoutActor } = await import("~/services/users.server");
const { createUserSession } = await import("~/web/session.server");
const { issueToken } = await import("~/web/token.server");
const { resolveEnquiryFilter } = await import("~/services/enquiry-lists.server");
const { explainEnquiryList } = await import("~/models/enquiry.server");
const { loader } = await import("~/routes/admin.enquiries");
const { loader: dashboard } = await import("~/routes/admin.dashboard");
const { loader: apiList } = await import("~/routes/api.enquiries");
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
const BATCH_IDS = ["bench-batch-1", "bench-batch-2", "bench-batch-3", "bench-batch-4", "bench-batch-5"];
let staffIds: string[] = [];

async function fill() {
  const start = performance.now();
  const BATCH = dialect() === "mysql" ? 2000 : 1000; // 30 columns × 1000 rows stays under SQLite's bound-parameter limit (32,766)
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
          const phone = phoneOf(i);
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
            // Every 7th holds one of five batches (the list's batch filter).
            scheduleId: i % 7 === 0 ? BATCH_IDS[i % BATCH_IDS.length] : null,
            utmSource: source.utmSource,
            utmMedium: source.utmMedium,
            utmCampaign: source.utmCampaign,
            referrer: source.referrer,
            sourceForm: FORMS[i % FORMS.length],
            sourceLabel: source.sourceLabel,
            firstStatusChangeAt: status === "new" ? null : at,
            // A few minors' enquiries held for a guardian, as on a live site.
            privacyState: i % 500 === 7 ? "held" : "",
            under18: i % 500 === 7 ? 1 : 0,
          });
        }
        await trx.insertInto("enquiries").values(rows).execute();
      }
    });
  return performance.now() - start;
}

/** Typed the way people type them; the search column holds the digits only (migration 0003). */
function phoneOf(i: number): string {
  const mobile = `9${String(100000000 + ((i * 7919) % 900000000)).padStart(9, "0")}`;
  return `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`;
}

type Result = { label: string; query: string; median: number; max: number; note: string };
const results: Result[] = [];

async function measure(label: string, query: string, call: () => Promise<string>) {
  const note = await call(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  results.push({ label, query, median: samples[Math.floor(samples.length / 2)], max: samples.at(-1)!, note });
}

const context = { cspNonce: "", clientIp: "127.0.0.1" };
type ListPage = { total: number; page: number; pages: number; data: unknown[] };

async function screen(label: string, search: string, cookie: string): Promise<ListPage> {
  let last: ListPage | undefined;
  await measure(label, `/admin/enquiries${search}`, async () => {
    const request = new Request(`http://localhost/admin/enquiries${search}`, { headers: { Cookie: cookie } });
    last = ((await loader({ request, params: {}, context } as never)) as { list: ListPage }).list;
    return `${last.data.length} of ${last.total}, page ${last.page}/${last.pages}`;
  });
  return last!;
}

async function api(label: string, search: string, token: string) {
  await measure(label, `/api/enquiries${search}`, async () => {
    const request = new Request(`http://localhost/api/enquiries${search}`, { headers: { Authorization: `Bearer ${token}` } });
    const response = (await apiList({ request, params: { "*": "enquiries" }, context } as never)) as Response;
    if (response.status !== 200) throw new Error(`/api/enquiries${search} answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { data: unknown[]; total?: number; meta?: { total: number } };
    return `${body.data.length} of ${body.total ?? body.meta?.total ?? "?"}`;
  });
}

class FillOnly extends Error {}
const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

try {
  await openDb(process.env.DATABASE_URL!);
  await migrateToLatest(db());
  await createUserWithoutActor({ name: "Bench Editor", email: "bench@example.com", password: "bench-password-123", role: "editor" });
  for (const name of ["Priya", "Arjun"])
    await createUserWithoutActor({ name, email: `${name.toLowerCase()}@example.com`, password: "bench-password-123", role: "editor" });
  staffIds = (await db().selectFrom("users").select("id").orderBy("email").execute()).map((u) => u.id);
  const fillMs = await fill();
  console.log(`Filled ${COUNT.toLocaleString("en-US")} enquiries in ${(fillMs / 1000).toFixed(1)} s (${engine}, Node.js ${process.version})`);

  if (args.includes("--fill-only")) throw new FillOnly();
  const user = (await getUserWithSecret({ email: "bench@example.com" }))!;
  const login = await createUserSession(new Request("http://localhost/admin/login"), user, "/admin");
  const cookie = login.headers.get("Set-Cookie")!.split(";")[0];
  const token = await issueToken(user);
  const course = encodeURIComponent(COURSES[2]);
  const some = Math.floor(COUNT * 0.37);
  const digits = phoneOf(some).replace(/\D/g, "");
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

  const all = await screen("All, first page", "", cookie);
  await screen("All, last page", `?page=${all.pages}`, cookie);
  await screen("All, oldest first", "?sort=oldest", cookie);
  await screen("All, by follow-up", "?sort=follow-up", cookie);
  const contacted = await screen("Contacted tab", "?status=contacted", cookie);
  await screen("Contacted tab, last page", `?status=contacted&page=${contacted.pages}`, cookie);
  for (const status of ["new", "enrolled", "closed"]) await screen(`Status ${status}`, `?status=${status}`, cookie);
  const byName = await screen("Search: first name", "?q=Priya", cookie);
  await screen("Search: first name, last page", `?q=Priya&page=${byName.pages}`, cookie);
  await screen("Search: surname, any case", "?q=kulkarni", cookie);
  await screen("Search: name and number", `?q=${encodeURIComponent(`${FIRST[12 % FIRST.length]} ${LAST[(12 * 7) % LAST.length]} 12`)}`, cookie);
  await screen("Search: whole e-mail", `?q=${encodeURIComponent(`student${some}@example.com`)}`, cookie);
  await screen("Search: start of e-mail", `?q=student${String(some).slice(0, 4)}`, cookie);
  await screen("Search: phone as typed", `?q=${encodeURIComponent(phoneOf(some))}`, cookie);
  await screen("Search: last 4 phone digits", `?q=${digits.slice(-4)}`, cookie);
  await screen("Search: first 5 mobile digits", `?q=${digits.slice(2, 7)}`, cookie);
  await screen("Search: e-mail's end (every row)", "?q=example.com", cookie);
  await screen("Search: 2 letters (no index)", "?q=Ra", cookie);
  await screen("Search: no match", "?q=Zzyzx", cookie);
  await screen("Closed + search", "?status=closed&q=Sneha", cookie);
  await screen("Mine", "?assignee=mine", cookie);
  await screen("Unassigned", "?assignee=none", cookie);
  const owner = await screen("A named owner", `?assignee=${staffIds[1]}`, cookie);
  await screen("A named owner, last page", `?assignee=${staffIds[1]}&page=${owner.pages}`, cookie);
  await screen("Follow-up due today", "?followUp=due", cookie);
  await screen("Follow-up overdue", "?followUp=overdue", cookie);
  await screen("No follow-up", "?followUp=none", cookie);
  await screen("Mine + due today", "?assignee=mine&followUp=due", cookie);
  await screen("Mine + overdue", "?assignee=mine&followUp=overdue", cookie);
  await screen("Course", `?course=${course}`, cookie);
  await screen("Mode", "?mode=hybrid", cookie);
  await screen("Source", "?source=instagram.com", cookie);
  await screen("Form", "?form=api", cookie);
  await screen("Date range (one week)", `?from=${day(14)}&to=${day(7)}`, cookie);
  await screen("New + course + mode", `?status=new&course=${course}&mode=online`, cookie);
  await screen("Mine + overdue + source + course", `?assignee=mine&followUp=overdue&source=google&course=${encodeURIComponent(COURSES[0])}`, cookie);
  await screen("Source + date range + search", `?source=google&from=${day(30)}&to=${day(1)}&q=Reddy`, cookie);
  const batch = await screen("Batch", `?batch=${BATCH_IDS[2]}`, cookie);
  await screen("Batch, last page", `?batch=${BATCH_IDS[2]}&page=${batch.pages}`, cookie);
  const queue = await screen("My queue", "?view=queue", cookie);
  await screen("My queue, last page", `?view=queue&page=${queue.pages}`, cookie);

  await measure("Dashboard", "/admin/dashboard", async () => {
    await dashboard({ request: new Request("http://localhost/admin/dashboard", { headers: { Cookie: cookie } }), params: {}, context } as never);
    return "";
  });

  await api("API: first page", "", token);
  await api("API: status", "?status=contacted", token);
  await api("API: search by name", "?q=Priya", token);
  await api("API: search by phone digits", `?q=${digits.slice(-4)}`, token);
  await api("API: mine + overdue", "?assignee=mine&followUp=overdue", token);
  await api("API: course + source, page 20", `?course=${course}&source=google&page=20`, token);
  await api("API: date range", `?from=${day(14)}&to=${day(7)}`, token);

  const width = { label: 34, query: 58 };
  console.log(
    `\n${engine}, ${COUNT.toLocaleString("en-US")} enquiries, Node.js ${process.version}: server time of the loaders, median and max of ${RUNS} runs after a warm-up`,
  );
  console.log(`| ${pad("What", width.label)} | ${pad("Request", width.query)} | median ms | max ms | rows |`);
  console.log(`|${"-".repeat(width.label + 2)}|${"-".repeat(width.query + 2)}|----------:|-------:|------|`);
  for (const r of results) {
    console.log(
      `| ${pad(r.label, width.label)} | ${pad(r.query, width.query)} | ${r.median.toFixed(1).padStart(9)} | ${r.max.toFixed(1).padStart(6)} | ${r.note} |`,
    );
  }

  // The plan of every list query in the default order: a full scan or a temporary sort is flagged.
  console.log(`\nQuery plans (EXPLAIN) of the list queries in the default order:`);
  const actor = { user: { ...user, id: staffIds[0] }, ip: "" } as never;
  const plans: [string, Record<string, string | undefined>][] = [
    ["All", {}],
    ["Status", { status: "contacted" }],
    ["Search", { q: "Priya" }],
    ["Search phone", { q: digits.slice(-4) }],
    ["Search e-mail", { q: `student${some}@example.com` }],
    ["Mine", { assignee: "mine" }],
    ["Unassigned", { assignee: "none" }],
    ["Due today", { followUp: "due" }],
    ["Overdue", { followUp: "overdue" }],
    ["No follow-up", { followUp: "none" }],
    ["Mine + overdue", { assignee: "mine", followUp: "overdue" }],
    ["Course", { course: COURSES[2] }],
    ["Mode", { mode: "hybrid" }],
    ["Source", { source: "google" }],
    ["Form", { form: "api" }],
    ["Date range", { from: day(14), to: day(7) }],
    ["New + course + mode", { status: "new", course: COURSES[2], mode: "online" }],
    ["Batch", { batch: BATCH_IDS[2] }],
    ["My queue (two parts)", { view: "queue" }],
  ];
  let flagged = 0;
  for (const [label, query] of plans) {
    const plan = await explainEnquiryList(resolveEnquiryFilter(actor, query));
    // A search reads its matches from the search index and sorts only those (never the whole table). On MySQL a few
    // matches are read by primary key (their ids from the indexes) and put in order in the server; a broad term's page
    // walks the list's order.
    const search = plan.some((line) => /VIRTUAL TABLE|fulltext|<derived|<subquery|MATERIALIZED/i.test(line));
    const bad = plan.filter(
      (line) => (!search && /temp b-tree|filesort|using temporary/i.test(line)) || /^enquiries type=ALL\b/.test(line) || /^SCAN enquiries$/i.test(line.trim()),
    );
    flagged += bad.length ? 1 : 0;
    console.log(`  ${bad.length ? "FULL SCAN/TEMP SORT" : search ? "ok (sorts its matches)" : "ok"}  ${label}: ${plan.join(" ; ")}`);
  }
  console.log(
    flagged ? `${flagged} list queries need a full scan or a temporary sort.` : "No list query scans the whole table or sorts in a temporary B-tree.",
  );

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
    `\nCSV export of all ${COUNT.toLocaleString("en-US")}: ${((performance.now() - start) / 1000).toFixed(2)} s, ${(bytes / 1048576).toFixed(1)} MB, ${lines} lines; ` +
      `memory: ${(baseline / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB (+${((peak - baseline) / 1048576).toFixed(0)} MB)`,
  );

  // My queue's CSV: the queue's two parts, each read a page at a time in its own order (what the list shows).
  const queueStart = performance.now();
  const queueCsv = (await exportCsv({
    request: new Request("http://localhost/admin/enquiries/export.csv?view=queue", { headers: { Cookie: cookie } }),
    params: {},
    context,
  } as never)) as Response;
  const queueLines = (await queueCsv.text()).split("\n").filter(Boolean).length - 1;
  console.log(`CSV export of My queue: ${((performance.now() - queueStart) / 1000).toFixed(2)} s, ${queueLines} rows (the list says ${queue.total})`);
} catch (error) {
  if (!(error instanceof FillOnly)) throw error;
} finally {
  await closeDb();
  if (args.includes("--keep")) console.log(`Kept ${databaseUrl}`);
  else fs.rmSync(dir, { recursive: true, force: true });
  if (serverUrl && !args.includes("--keep")) {
    const { createConnection } = await import("mysql2/promise");
    const admin = await createConnection({ uri: serverUrl });
    await admin.query(`drop database if exists \`${mysqlName}\``);
    await admin.end();
  }
}
