/**
 * How fast is the Manage Enquiries list with 100,000 enquiries? (issue 4, DESIGN.md §6)
 *
 *   npx tsx scripts/bench-enquiries.ts [count]
 *
 * Fills a temporary SQLite database (batch inserts in one transaction), signs in a staff member, and times the
 * list's real route loader (session check, tab/search/page in SQL, count) for the first and the last page,
 * with a status tab and with searches. A measurement, not a test: it prints numbers and never fails on them.
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
const { createUser, getUserWithSecret } = await import("~/models/user.server");
const { createUserSession } = await import("~/lib/session.server");
const { loader } = await import("~/routes/admin.enquiries");

const FIRST = ["Ravi", "Priya", "Arjun", "Sneha", "Kiran", "Fatima", "Vikram", "Ananya", "Rahul", "Meera", "Imran", "Divya"];
const LAST = ["Kumar", "Reddy", "Varma", "Kulkarni", "Das", "Khan", "Rao", "Iyer", "Menon", "Nair", "Shaikh", "Sharma"];
const COURSES = ["SOC Analyst Training Program", "Cybersecurity Fundamentals", "Penetration Testing and Ethical Hacking", "Network Security Specialist", "Cloud Security Practitioner"];
const STATUSES = ["new", "contacted", "enrolled", "closed"];
const MODES = ["online", "offline", "hybrid"];

async function fill() {
  const start = performance.now();
  const t0 = Date.parse("2025-01-01T00:00:00Z");
  const BATCH = 1000; // 14 columns × 1000 rows stays under SQLite's bound-parameter limit
  await db().transaction().execute(async (trx) => {
    for (let from = 0; from < COUNT; from += BATCH) {
      const rows = [];
      for (let i = from; i < Math.min(COUNT, from + BATCH); i++) {
        const at = new Date(t0 + i * 60_000).toISOString();
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
          status: STATUSES[(i * 13) % STATUSES.length],
          createdAt: at,
          updatedAt: at,
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
  const fillMs = await fill();
  console.log(`Filled ${COUNT.toLocaleString("en-US")} enquiries in ${(fillMs / 1000).toFixed(1)} s (SQLite, ${dir})`);

  await createUser({ name: "Bench Editor", email: "bench@example.com", password: "bench-password-123", role: "editor" });
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
} finally {
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
}
