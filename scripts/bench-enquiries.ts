/**
 * Does the back office's enquiry desk cost the same at 100,000 enquiries as at 1,000? (DESIGN.md §6, issues 30, 39)
 *
 *   npx tsx scripts/bench-enquiries.ts [count] [--rounds N] [--quick]
 *   DATABASE_URL=mysql://root@127.0.0.1:3306 npx tsx scripts/bench-enquiries.ts   (MariaDB/MySQL)
 *
 * Fills two new databases in one process (SQLite files in a temporary folder; with a mysql:// DATABASE_URL, two
 * databases of their own on that server, dropped at the end): 1,000 enquiries and `count` (100,000), spread over
 * three years, owners, follow-ups, sources, courses and modes; signs a staff member in on each, and times the real
 * loaders a request runs (the admin layout's session check and sidebar counts with the screen's own loader, as one
 * request does): the list with each filter, combination, sort and page the screen offers, searches, My queue, the
 * dashboard and /api/enquiries. Each line runs on both databases in every round, in a random order, after a
 * warm-up; it prints the median of each size and their ratio (big / small): a change that makes cost grow with the
 * table shows at once. Then the query plan (EXPLAIN) of each list query on the big one, flagging a full scan or a
 * temporary sort, and a full CSV export with its peak memory. `--quick` (100 and 1,000 rows, one round) is what CI
 * runs (tests/integration/scripts-run.test.ts) so the script cannot rot. A measurement, not a test: it never fails
 * on the numbers. `--keep` leaves the SQLite files (or MySQL databases) for a closer look.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";

const args = process.argv.slice(2);
const QUICK = args.includes("--quick");
const roundsArg = args.indexOf("--rounds");
const COUNT = Number(args.find((a, i) => /^\d+$/.test(a) && (roundsArg < 0 || i !== roundsArg + 1)) ?? (QUICK ? 1000 : 100_000));
const SMALL = QUICK ? 100 : 1000;
const ROUNDS = roundsArg >= 0 ? Number(args[roundsArg + 1]) : QUICK ? 1 : 9;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-enquiries-"));
const serverUrl = process.env.DATABASE_URL?.startsWith("mysql://") ? process.env.DATABASE_URL : null;
const SIZES = [SMALL, COUNT] as const;
const mysqlName = (size: number) => `bench_enquiries_${process.pid}_${size}`;
function urlOf(size: number): string {
  if (!serverUrl) return `file:${path.join(dir, `bench-${size}.db`)}`;
  const u = new URL(serverUrl);
  u.pathname = `/${mysqlName(size)}`;
  return u.toString();
}
if (serverUrl) {
  const { createConnection } = await import("mysql2/promise");
  const admin = await createConnection({ uri: serverUrl });
  for (const size of SIZES) await admin.query(`create database \`${mysqlName(size)}\` character set utf8mb4`);
  await admin.end();
}
Object.assign(process.env, {
  NODE_ENV: "production",
  DATABASE_URL: urlOf(COUNT),
  UPLOAD_DIR: path.join(dir, "uploads"),
  BACKUP_DIR: path.join(dir, "backups"),
  SESSION_SECRET: "bench-secret-0123456789-0123456789-0123456789",
  SEED_DEMO: "false",
});
const engine = serverUrl ? "MariaDB/MySQL" : "SQLite";

// Imported after the environment is set: the modules read it when first used.
const { createDb, switchToOpenedDb, db, migrateToLatest, dialect } = await import("~db/client.server");
const { getUserWithSecret } = await import("~/models/user.server");
const { createUserWithoutActor } = await import("~/services/users.server");
const { createUserSession } = await import("~/web/session.server");
const { issueToken } = await import("~/web/token.server");
const { resolveEnquiryFilter } = await import("~/services/enquiry-lists.server");
const { explainEnquiryList } = await import("~/models/enquiry.server");
const { loader: layout } = await import("~/routes/admin");
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
const YEARS_MS = 3 * 365 * 86_400_000;

async function fill(COUNT: number, staffIds: string[]) {
  const start = performance.now();
  const BATCH = dialect() === "mysql" ? 2000 : 1000; // 30 columns × 1000 rows stays under SQLite's bound-parameter limit (32,766)
  await db()
    .transaction()
    .execute(async (trx) => {
      for (let from = 0; from < COUNT; from += BATCH) {
        const rows = [];
        for (let i = from; i < Math.min(COUNT, from + BATCH); i++) {
          // Spread evenly over the last three years, as on a live site: the dashboard's windows (12 weeks, 30 and
          // 90 days) hold their share of them, more at 100,000 than at 1,000.
          const at = new Date(Date.now() - Math.round(((COUNT - i) * YEARS_MS) / COUNT)).toISOString();
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

/**
 * Waits until the database has written out what the fill left to write, so the rounds time the site, not the
 * server's background work: InnoDB flushes the fill's pages for some 10 seconds after it (5,000 dirty pages at
 * 100,000 enquiries), and rounds timed meanwhile made the big side up to 4 times slower on a 2-core machine (waits
 * up to 30 s; not with --quick). SQLite: the WAL is checkpointed into the file, as the site's own checkpoints do.
 */
async function settle(): Promise<number> {
  const start = performance.now();
  if (dialect() === "sqlite") {
    await sql`pragma wal_checkpoint(truncate)`.execute(db());
    return performance.now() - start;
  }
  for (let tries = 0; tries < (QUICK ? 0 : 60); tries++) {
    const { rows } = await sql<{ dirty: number | string; history: number | string }>`select
      (select variable_value from information_schema.global_status where variable_name = 'INNODB_BUFFER_POOL_PAGES_DIRTY') as dirty,
      (select count from information_schema.innodb_metrics where name = 'trx_rseg_history_len') as history`.execute(db());
    if (Number(rows[0]?.dirty ?? 0) < 200 && Number(rows[0]?.history ?? 0) < 1000) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return performance.now() - start;
}

/** Typed the way people type them; the search column holds the digits only (migration 0003). */
function phoneOf(i: number): string {
  const mobile = `9${String(100000000 + ((i * 7919) % 900000000)).padStart(9, "0")}`;
  return `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`;
}

class FillOnly extends Error {}

/** One database of the pair: its connection, its signed-in staff member and what its lines need. */
type Side = {
  size: number;
  url: string;
  opened: Awaited<ReturnType<typeof createDb>>;
  cookie: string;
  token: string;
  staffIds: string[];
  user: NonNullable<Awaited<ReturnType<typeof getUserWithSecret>>>;
};

type ListPage = { total: number; page: number; pages: number; data: unknown[] };
/** A line of the table: what it asks for on one side, and what it answered (rows, total). */
type Line = { label: string; kind: "screen" | "api" | "dashboard"; query: (side: Side) => string };

const switchTo = (side: Side) => switchToOpenedDb(side.opened, side.url);

/** One request as the server runs it: the admin layout's loader (session, sidebar) and the screen's, with one load context. */
async function request(side: Side, line: Line): Promise<string> {
  switchTo(side);
  const context = { cspNonce: "", clientIp: "127.0.0.1" };
  const target = line.query(side);
  if (line.kind === "api") {
    const request = new Request(`http://localhost${target}`, { headers: { Authorization: `Bearer ${side.token}` } });
    const response = (await apiList({ request, params: { "*": "enquiries" }, context } as never)) as Response;
    if (response.status !== 200) throw new Error(`${target} answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { data: unknown[]; total?: number; meta?: { total: number } };
    return `${body.data.length} of ${body.total ?? body.meta?.total ?? "?"}`;
  }
  const request = new Request(`http://localhost${target}`, { headers: { Cookie: side.cookie } });
  const args = { request, params: {}, context } as never;
  const [, screen] = await Promise.all([layout(args), line.kind === "dashboard" ? dashboard(args) : loader(args)]);
  if (line.kind === "dashboard") return "";
  const list = (screen as { list: ListPage }).list;
  return `${list.data.length} of ${list.total}, page ${list.page}/${list.pages}`;
}

/** The number of pages a list has on one side (for its last page). */
async function pagesOf(side: Side, search: string): Promise<number> {
  switchTo(side);
  const request = new Request(`http://localhost/admin/enquiries${search}`, { headers: { Cookie: side.cookie } });
  const screen = (await loader({ request, params: {}, context: { cspNonce: "", clientIp: "127.0.0.1" } } as never)) as { list: ListPage };
  return screen.list.pages;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

async function prepare(size: number): Promise<Side> {
  const url = urlOf(size);
  const opened = await createDb(url);
  const side = { size, url, opened } as Side;
  switchTo(side);
  await migrateToLatest(db());
  await createUserWithoutActor({ name: "Bench Editor", email: "bench@example.com", password: "bench-password-123", role: "editor" });
  for (const name of ["Priya", "Arjun"])
    await createUserWithoutActor({ name, email: `${name.toLowerCase()}@example.com`, password: "bench-password-123", role: "editor" });
  side.staffIds = (await db().selectFrom("users").select("id").orderBy("email").execute()).map((u) => u.id);
  const fillMs = await fill(size, side.staffIds);
  const settleMs = await settle();
  console.log(
    `Filled ${size.toLocaleString("en-US")} enquiries in ${(fillMs / 1000).toFixed(1)} s, then ${(settleMs / 1000).toFixed(1)} s for the database to settle (${engine}, Node.js ${process.version})`,
  );
  side.user = (await getUserWithSecret({ email: "bench@example.com" }))!;
  const login = await createUserSession(new Request("http://localhost/admin/login"), side.user, "/admin");
  side.cookie = login.headers.get("Set-Cookie")!.split(";")[0];
  side.token = await issueToken(side.user);
  return side;
}

const sides: Side[] = [];
try {
  for (const size of SIZES) sides.push(await prepare(size));
  if (args.includes("--fill-only")) throw new FillOnly();
  const [small, big] = sides;

  const course = encodeURIComponent(COURSES[2]);
  const someOf = (side: Side) => Math.floor(side.size * 0.37);
  const digitsOf = (side: Side) => phoneOf(someOf(side)).replace(/\D/g, "");
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const lastPages = new Map<string, number>();
  const screen = (label: string, search: string | ((side: Side) => string)): Line => ({
    label,
    kind: "screen",
    query: (side) => `/admin/enquiries${typeof search === "string" ? search : search(side)}`,
  });
  /** The last page of a list: found on each side first. */
  const last = (label: string, search: string | ((side: Side) => string)): Line => {
    const base = (side: Side) => (typeof search === "string" ? search : search(side));
    return screen(label, (side) => {
      const pages = lastPages.get(`${side.size}${base(side)}`)!;
      return `${base(side)}${base(side) ? "&" : "?"}page=${pages}`;
    });
  };
  const api = (label: string, search: string | ((side: Side) => string)): Line => ({
    label,
    kind: "api",
    query: (side) => `/api/enquiries${typeof search === "string" ? search : search(side)}`,
  });
  const owner = (side: Side) => `?assignee=${side.staffIds[1]}`;
  const lines: Line[] = [
    screen("All, first page", ""),
    screen("All, page 2", "?page=2"),
    last("All, last page", ""),
    screen("All, oldest first", "?sort=oldest"),
    screen("All, by follow-up", "?sort=follow-up"),
    screen("Contacted tab", "?status=contacted"),
    last("Contacted tab, last page", "?status=contacted"),
    ...["new", "enrolled", "closed"].map((status) => screen(`Status ${status}`, `?status=${status}`)),
    screen("Search: common first name", "?q=Priya"),
    last("Search: first name, last page", "?q=Priya"),
    screen("Search: surname, any case", "?q=kulkarni"),
    screen(
      "Search: rare full name",
      (side) => `?q=${encodeURIComponent(`${FIRST[someOf(side) % FIRST.length]} ${LAST[(someOf(side) * 7) % LAST.length]} ${someOf(side)}`)}`,
    ),
    screen("Search: whole e-mail", (side) => `?q=${encodeURIComponent(`student${someOf(side)}@example.com`)}`),
    screen("Search: phone as typed", (side) => `?q=${encodeURIComponent(phoneOf(someOf(side)))}`),
    screen("Search: last 4 phone digits", (side) => `?q=${digitsOf(side).slice(-4)}`),
    screen("Search: first 5 mobile digits", (side) => `?q=${digitsOf(side).slice(2, 7)}`),
    screen("Search: no match", "?q=Zzyzx"),
    screen("Closed + search", "?status=closed&q=Sneha"),
    screen("Mine", "?assignee=mine"),
    screen("Unassigned", "?assignee=none"),
    screen("A named owner", owner),
    last("A named owner, last page", owner),
    screen("Follow-up due today", "?followUp=due"),
    screen("Follow-up overdue", "?followUp=overdue"),
    screen("No follow-up", "?followUp=none"),
    screen("Mine + overdue", "?assignee=mine&followUp=overdue"),
    screen("Course", `?course=${course}`),
    screen("Mode", "?mode=hybrid"),
    screen("Source", "?source=instagram.com"),
    screen("Form", "?form=api"),
    screen("Date range (one week)", `?from=${day(14)}&to=${day(7)}`),
    screen("Contacted + offline", "?status=contacted&mode=offline"),
    screen("Contacted + course + online", `?status=contacted&course=${course}&mode=online`),
    screen("Mine + overdue + source + course", `?assignee=mine&followUp=overdue&source=google&course=${encodeURIComponent(COURSES[0])}`),
    screen("Batch", `?batch=${BATCH_IDS[2]}`),
    last("Batch, last page", `?batch=${BATCH_IDS[2]}`),
    screen("My queue", "?view=queue"),
    last("My queue, last page", "?view=queue"),
    { label: "Dashboard", kind: "dashboard", query: () => "/admin/dashboard" },
    api("API: first page", ""),
    api("API: contacted + offline", "?status=contacted&mode=offline"),
    api("API: search by name", "?q=Priya"),
    api("API: search by phone digits", (side) => `?q=${digitsOf(side).slice(-4)}`),
    api("API: mine + overdue", "?assignee=mine&followUp=overdue"),
    // Page 3: there at both sizes (50 such enquiries at 1,000; page 20 there was past the end, an empty answer).
    api("API: course + source, page 3", `?course=${course}&source=google&page=3`),
    api("API: date range", `?from=${day(14)}&to=${day(7)}`),
  ];
  for (const side of sides)
    for (const search of ["", "?status=contacted", "?q=Priya", owner(side), `?batch=${BATCH_IDS[2]}`, "?view=queue"])
      lastPages.set(`${side.size}${search}`, await pagesOf(side, search));

  console.log(
    `\n${engine}, ${SMALL.toLocaleString("en-US")} and ${COUNT.toLocaleString("en-US")} enquiries side by side, Node.js ${process.version}: ` +
      `time of the request's loaders, median of ${ROUNDS} paired rounds (each round runs both, in a random order) after a warm-up`,
  );
  const width = { label: 34, query: 54 };
  const head = (n: number) => `${(n / 1000).toLocaleString("en-US")}k ms`.padStart(9);
  console.log(
    `| ${pad("What", width.label)} | ${pad("Request", width.query)} | ${head(SMALL)} | ${head(COUNT)} | ratio | rows (${COUNT.toLocaleString("en-US")}) |`,
  );
  console.log(`|${"-".repeat(width.label + 2)}|${"-".repeat(width.query + 2)}|----------:|----------:|------:|------|`);
  const ratios: number[] = [];
  for (const line of lines) {
    const samples = new Map<Side, number[]>(sides.map((s) => [s, []]));
    const notes = new Map<Side, string>();
    for (const side of sides) notes.set(side, await request(side, line)); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      const order = Math.random() < 0.5 ? sides : [...sides].reverse();
      for (const side of order) {
        const start = performance.now();
        await request(side, line);
        samples.get(side)!.push(performance.now() - start);
      }
    }
    const [a, b] = [median(samples.get(small)!), median(samples.get(big)!)];
    ratios.push(b / a);
    console.log(
      `| ${pad(line.label, width.label)} | ${pad(line.query(big), width.query)} | ${a.toFixed(1).padStart(9)} | ${b.toFixed(1).padStart(9)} | ${(b / a).toFixed(2).padStart(5)} | ${notes.get(big)} |`,
    );
  }
  const worst = Math.max(...ratios);
  console.log(`Worst ratio ${worst.toFixed(2)}; lines over 2×: ${ratios.filter((r) => r > 2).length} of ${ratios.length}.`);

  // The plan of every list query in the default order on the big database: a full scan or a temporary sort is flagged.
  switchTo(big);
  const some = someOf(big);
  const digits = digitsOf(big);
  console.log(`\nQuery plans (EXPLAIN) of the list queries in the default order:`);
  const actor = { user: { ...big.user, id: big.staffIds[0] }, ip: "" } as never;
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
  const context = { cspNonce: "", clientIp: "127.0.0.1" };
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = performance.now();
  const response = (await exportCsv({
    request: new Request("http://localhost/admin/enquiries/export.csv", { headers: { Cookie: big.cookie } }),
    params: {},
    context,
  } as never)) as Response;
  let bytes = 0;
  let lines2 = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const b of chunk) if (b === 10) lines2++;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `\nCSV export of all ${COUNT.toLocaleString("en-US")}: ${((performance.now() - start) / 1000).toFixed(2)} s, ${(bytes / 1048576).toFixed(1)} MB, ${lines2} lines; ` +
      `memory: ${(baseline / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB (+${((peak - baseline) / 1048576).toFixed(0)} MB)`,
  );
} catch (error) {
  if (!(error instanceof FillOnly)) throw error;
} finally {
  for (const side of sides) await side.opened.db.destroy();
  if (args.includes("--keep")) console.log(`Kept ${SIZES.map(urlOf).join(" and ")}`);
  else fs.rmSync(dir, { recursive: true, force: true });
  if (serverUrl && !args.includes("--keep")) {
    const { createConnection } = await import("mysql2/promise");
    const admin = await createConnection({ uri: serverUrl });
    for (const size of SIZES) await admin.query(`drop database if exists \`${mysqlName(size)}\``);
    await admin.end();
  }
}
