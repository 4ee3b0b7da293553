import { createHash } from "node:crypto";
import { isIPv6 } from "node:net";
import { RateLimiterMySQL, RateLimiterRes, RateLimiterSQLite, type RateLimiterStoreAbstract } from "rate-limiter-flexible";
import { db, inTransactionNow, rawDriver, type RawDriver } from "~db/client.server";
import { env } from "~/env.server";
import { getUserWithSecret } from "~/models/user.server";
import { deleteAllRateLimits, deleteRateLimitsExpiredBefore } from "~/models/rate-limit.server";

/**
 * Throttling for sign-in and the public forms. Route actions call these and answer 429 with Retry-After
 * (the forms keep what was typed and show RATE_LIMIT_MESSAGE). Limits come from the environment
 * (FORM_RATE_LIMIT, FORM_RATE_WINDOW, LOGIN_RATE_LIMIT_IP, LOGIN_RATE_LIMIT_ACCOUNT,
 * LOGIN_RATE_LIMIT_ACCOUNT_TOTAL, LOGIN_BLOCK_SECONDS, LOGIN_BLOCK_MAX_SECONDS; see .env.example).
 * RATE_LIMIT=off switches everything off, for load tests on a private network.
 *
 * The counts live in the application database (table rate_limits, migration 0006), through
 * rate-limiter-flexible's SQLite and MySQL stores: a restart does not hand out fresh tries, and several
 * app processes on one database share one count.
 */
export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

export type RateDecision = { ok: true } | { ok: false; retryAfter: number };

type Limiter = RateLimiterStoreAbstract;

/** Sign-in attempts are counted per hour. */
const LOGIN_WINDOW_SECONDS = 3600;
const TABLE = "rate_limits";
/** The key column holds 255 characters; the longest prefix plus this leaves room. */
const MAX_KEY_LENGTH = 200;

/** Each limiter's key prefix: rows are "<prefix>:<key>" (what an erasure looks for by exact key, too). */
const PREFIX = {
  loginByIp: "login-ip",
  loginByAccountIp: "login-acct-ip",
  loginByAccount: "login-acct",
  blocks: "login-blocks",
  meView: "me-view",
  meLinkIp: "me-link-ip",
  meLinkAddress: "me-link-addr",
} as const;

function build(raw: RawDriver) {
  const e = env();
  // The migration made the table (tableCreated), and expired rows are cleared by sweepExpired, not by the
  // stores' own timers: those would run on SQLite outside Kysely's connection lock and are never stopped.
  const limiter = (keyPrefix: string, points: number, duration: number): Limiter =>
    raw.dialect === "sqlite"
      ? new RateLimiterSQLite({
          storeClient: raw.database,
          storeType: "better-sqlite3",
          tableName: TABLE,
          tableCreated: true,
          clearExpiredByTimeout: false,
          keyPrefix,
          points,
          duration,
        })
      : new RateLimiterMySQL({
          storeClient: raw.pool,
          storeType: "pool",
          dbName: raw.databaseName,
          tableName: TABLE,
          tableCreated: true,
          clearExpiredByTimeout: false,
          keyPrefix,
          points,
          duration,
        });
  return {
    raw,
    env: e,
    forms: {
      enquiry: limiter("enquiry", e.FORM_RATE_LIMIT, e.FORM_RATE_WINDOW),
      contact: limiter("contact", e.FORM_RATE_LIMIT, e.FORM_RATE_WINDOW),
    },
    // Sign-ins per IP per hour that did not succeed, whatever the account: stops one address trying many accounts.
    loginByIp: limiter(PREFIX.loginByIp, e.LOGIN_RATE_LIMIT_IP, LOGIN_WINDOW_SECONDS),
    // One account guessed from one address: a short limit, so a stranger elsewhere cannot lock staff out with it.
    loginByAccountIp: limiter(PREFIX.loginByAccountIp, e.LOGIN_RATE_LIMIT_ACCOUNT, LOGIN_WINDOW_SECONDS),
    // One account guessed from many addresses (a botnet): a higher limit across all of them.
    loginByAccount: limiter(PREFIX.loginByAccount, e.LOGIN_RATE_LIMIT_ACCOUNT_TOTAL, LOGIN_WINDOW_SECONDS),
    // How many blocks a key has had in the last day, for the growing delay (expires, so it cannot grow without bound).
    blocks: limiter(PREFIX.blocks, 1_000_000, 86_400),
    // Privacy links (app/services/privacy-me.server.ts): pages opened with a token per IP (no guessing tokens), and
    // "Where is my enquiry?" per IP and per address (no flooding someone's inbox). The address is counted by its hash.
    privacy: {
      "me-view": limiter(PREFIX.meView, 60, 600),
      "me-link-ip": limiter(PREFIX.meLinkIp, e.FORM_RATE_LIMIT, e.FORM_RATE_WINDOW),
      "me-link-address": limiter(PREFIX.meLinkAddress, 3, 3600),
    },
  };
}
type Limiters = ReturnType<typeof build>;

let limiters: Limiters | undefined;
function get(): Limiters {
  // Rebuilt when the database was closed and opened again (tests), so no limiter writes to a closed handle.
  const raw = rawDriver();
  if (limiters?.raw !== raw) limiters = build(raw);
  return limiters;
}

/**
 * Runs limiter calls. On SQLite the stores use the one better-sqlite3 handle Kysely also uses; a statement
 * run while another request's Kysely transaction is open would join that transaction (and vanish with its
 * rollback). Kysely's SQLite driver lends the handle to one user at a time (a mutex held for a whole
 * transaction), so the calls run while holding it. `work` must not query through db(): it would wait for
 * itself. Inside inTransaction() the count would share the caller's fate, so that is refused outright.
 */
async function withStore<T>(work: (l: Limiters) => Promise<T>): Promise<T> {
  if (inTransactionNow()) throw new Error("Rate limits must not be counted inside inTransaction()");
  const l = get();
  if (l.raw.dialect !== "sqlite") return work(l);
  return db()
    .connection()
    .execute(() => work(l));
}

/** How often one process clears expired rows, and how long past expiry they are kept. */
const SWEEP_EVERY_MS = 5 * 60_000;
// The stores judge expiry by their own process's clock; the grace keeps a row a server with a slower clock still counts.
const SWEEP_GRACE_MS = 60 * 60_000;
let lastSweep = 0;

/**
 * Deletes rows that expired (a window or block that ended): without it, every address that ever sent a form
 * would stay in the table. Runs at most every SWEEP_EVERY_MS, as part of a limiter call rather than on a
 * timer, so there is nothing to stop at shutdown and it never runs after the database is closed.
 */
async function sweepExpired(): Promise<void> {
  const now = Date.now();
  if (Math.abs(now - lastSweep) < SWEEP_EVERY_MS) return;
  lastSweep = now;
  try {
    await deleteRateLimitsExpiredBefore(now - SWEEP_GRACE_MS);
  } catch (error) {
    // The rows stay until the next sweep; the request that happened to run it goes on.
    console.error("Rate-limit clean-up failed:", error);
  }
}

/** Forgets every count (tests): empties the table and rebuilds the limiters from the current settings. */
export async function resetRateLimits(): Promise<void> {
  limiters = undefined;
  lastSweep = 0;
  await deleteAllRateLimits();
}

function enabled() {
  return env().RATE_LIMIT !== "off";
}

function retrySeconds(res: unknown): number {
  return res instanceof RateLimiterRes ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 60;
}

/**
 * The key an address is counted under. An IPv6 client usually holds a whole /64 and can pick any
 * address in it, so IPv6 addresses count per /64; IPv4-mapped IPv6 addresses count as the IPv4 address.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail = ""] = ip.toLowerCase().split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (a:b::1.2.3.4) is two groups; only the first four groups matter here.
  const missing = Math.max(0, 8 - left.length - right.length);
  const groups = ip.includes("::") ? [...left, ...Array<string>(missing).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

export type FormName = "enquiry" | "contact";

/** Keys longer than the key column allows (an absurd e-mail or address) are counted under their hash. */
function bounded(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;
}

/** Counts one submission of a public form from this IP. */
export async function consumeFormAttempt(ip: string, form: FormName): Promise<RateDecision> {
  if (!enabled()) return { ok: true };
  await sweepExpired();
  try {
    await withStore((l) => l.forms[form].consume(bounded(ipKey(ip))));
    return { ok: true };
  } catch (res) {
    if (res instanceof Error) throw res;
    return { ok: false, retryAfter: retrySeconds(res) };
  }
}

export type PrivacyLimit = "me-view" | "me-link-ip" | "me-link-address";

/**
 * Counts one use of a privacy link page or one "Where is my enquiry?" request. `key` is the client's IP, or for
 * "me-link-address" the address asked about, which is kept only as its SHA-256 (no e-mail in the counts table).
 */
export async function consumePrivacyAttempt(which: PrivacyLimit, key: string): Promise<RateDecision> {
  if (!enabled()) return { ok: true };
  await sweepExpired();
  const counted = which === "me-link-address" ? `sha256:${createHash("sha256").update(emailKey(key)).digest("hex")}` : bounded(ipKey(key));
  try {
    await withStore((l) => l.privacy[which].consume(counted));
    return { ok: true };
  } catch (res) {
    if (res instanceof Error) throw res;
    return { ok: false, retryAfter: retrySeconds(res) };
  }
}

/** An e-mail as a key: the ways of typing one address (case, spaces, composed or decomposed accents) are one key. */
function emailKey(email: string): string {
  return email.trim().toLowerCase().normalize("NFC");
}

/**
 * The account an attempt is counted against: the user sign-in would check the password of (found the way
 * sign-in finds it), by id, so every spelling that reaches the account shares its count, and an e-mail
 * change does not reset it. An address no user has counts as itself.
 */
async function accountKey(email: string): Promise<string> {
  const user = await getUserWithSecret({ email });
  return user ? `user:${user.id}` : `email:${emailKey(email)}`;
}

async function loginKeys(ip: string, email: string) {
  const account = await accountKey(email);
  const address = ipKey(ip);
  return { ip: bounded(address), accountIp: bounded(`${account}|${address}`), account: bounded(account) };
}

/** The blocks counter's key for a limiter's key. */
function blocksKey(limiter: Limiter, key: string): string {
  return bounded(`${limiter.keyPrefix}|${key}`);
}

/**
 * Call before checking a password: counts this attempt against the IP, the account from this IP and
 * the account from anywhere, or says how long to wait. The attempt is counted before the (slow)
 * password check, so a burst of parallel guesses cannot all slip through before the first failure
 * is recorded. Follow it with recordLoginFailure or recordLoginSuccess.
 */
export async function beginLoginAttempt(ip: string, email: string): Promise<RateDecision> {
  if (!enabled()) return { ok: true };
  await sweepExpired();
  const keys = await loginKeys(ip, email);
  return withStore(async ({ loginByIp, loginByAccountIp, loginByAccount }) => {
    const steps: [Limiter, string][] = [
      [loginByIp, keys.ip],
      [loginByAccountIp, keys.accountIp],
      [loginByAccount, keys.account],
    ];
    const taken: [Limiter, string][] = [];
    for (const [limiter, key] of steps) {
      try {
        await limiter.consume(key);
        taken.push([limiter, key]);
      } catch (res) {
        // A refused attempt checks no password, so it gives back what it took from the other counters.
        await Promise.all(taken.map(([l, k]) => l.reward(k, 1).catch(() => undefined)));
        if (res instanceof Error) throw res;
        return { ok: false, retryAfter: retrySeconds(res) };
      }
    }
    return { ok: true };
  });
}

/**
 * After a wrong password: the attempt stays counted. When an account (from this IP, or in total) has
 * used up its attempts, it is blocked for LOGIN_BLOCK_SECONDS, twice as long for each further block
 * within a day, up to LOGIN_BLOCK_MAX_SECONDS; after a block the count starts again.
 */
export async function recordLoginFailure(ip: string, email: string): Promise<void> {
  if (!enabled()) return;
  const keys = await loginKeys(ip, email);
  await withStore(async ({ loginByAccountIp, loginByAccount, blocks, env: e }) => {
    for (const [limiter, key, points] of [
      [loginByAccountIp, keys.accountIp, e.LOGIN_RATE_LIMIT_ACCOUNT],
      [loginByAccount, keys.account, e.LOGIN_RATE_LIMIT_ACCOUNT_TOTAL],
    ] as const) {
      const state = await limiter.get(key);
      // Exactly at the limit: failures of attempts that were already under way must not stack more blocks.
      if (state?.consumedPoints !== points) continue;
      const n = (await blocks.penalty(blocksKey(limiter, key)))?.consumedPoints ?? 1;
      await limiter.block(key, Math.min(e.LOGIN_BLOCK_MAX_SECONDS, e.LOGIN_BLOCK_SECONDS * 2 ** Math.min(n - 1, 16)));
    }
  });
}

/** After a right password: the attempt is given back to the IP, and the account's counts and blocks are cleared. */
export async function recordLoginSuccess(ip: string, email: string): Promise<void> {
  if (!enabled()) return;
  const keys = await loginKeys(ip, email);
  await withStore(async ({ loginByIp, loginByAccountIp, loginByAccount, blocks }) => {
    await Promise.all([
      loginByIp.reward(keys.ip, 1),
      loginByAccountIp.delete(keys.accountIp),
      loginByAccount.delete(keys.account),
      blocks.delete(blocksKey(loginByAccountIp, keys.accountIp)),
      blocks.delete(blocksKey(loginByAccount, keys.account)),
    ]);
  });
}

/**
 * Every count an address can have (an erasure removes them): the sign-in counts of an address no user has, and
 * their blocks, whole keys or a key's beginning up to the IP address that follows it; "Where is my enquiry?" per
 * address (kept as the address's hash). Keys as rate-limiter-flexible writes them: "<prefix>:<key>".
 */
export function rateLimitKeysOfAddress(email: string): { exact: string[]; prefixes: string[] } {
  const account = `email:${emailKey(email)}`;
  return {
    exact: [
      `${PREFIX.loginByAccount}:${bounded(account)}`,
      `${PREFIX.blocks}:${bounded(`${PREFIX.loginByAccount}|${account}`)}`,
      `${PREFIX.meLinkAddress}:sha256:${createHash("sha256").update(emailKey(email)).digest("hex")}`,
    ],
    prefixes: [`${PREFIX.loginByAccountIp}:${account}|`, `${PREFIX.blocks}:${PREFIX.loginByAccountIp}|${account}|`],
  };
}

/** Headers for a 429 answer. */
export function retryAfterHeaders(decision: { retryAfter: number }): HeadersInit {
  return { "Retry-After": String(decision.retryAfter) };
}
