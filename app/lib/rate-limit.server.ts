import { isIPv6 } from "node:net";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "~/env.server";

/**
 * Throttling for sign-in and the public forms (in memory: one process). Route actions call these
 * and answer 429 with Retry-After (the forms keep what was typed and show RATE_LIMIT_MESSAGE).
 * Limits come from the environment (FORM_RATE_LIMIT, FORM_RATE_WINDOW, LOGIN_RATE_LIMIT_IP,
 * LOGIN_RATE_LIMIT_ACCOUNT, LOGIN_RATE_LIMIT_ACCOUNT_TOTAL, LOGIN_BLOCK_SECONDS, LOGIN_BLOCK_MAX_SECONDS;
 * see .env.example). RATE_LIMIT=off switches everything off, for load tests on a private network.
 */
export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

export type RateDecision = { ok: true } | { ok: false; retryAfter: number };

/** Sign-in attempts are counted per hour. */
const LOGIN_WINDOW_SECONDS = 3600;

function build() {
  const e = env();
  const limiter = (keyPrefix: string, points: number, duration: number) => new RateLimiterMemory({ keyPrefix, points, duration });
  return {
    env: e,
    forms: {
      enquiry: limiter("enquiry", e.FORM_RATE_LIMIT, e.FORM_RATE_WINDOW),
      contact: limiter("contact", e.FORM_RATE_LIMIT, e.FORM_RATE_WINDOW),
    },
    // Sign-ins per IP per hour that did not succeed, whatever the account: stops one address trying many accounts.
    loginByIp: limiter("login-ip", e.LOGIN_RATE_LIMIT_IP, LOGIN_WINDOW_SECONDS),
    // One account guessed from one address: a short limit, so a stranger elsewhere cannot lock staff out with it.
    loginByAccountIp: limiter("login-acct-ip", e.LOGIN_RATE_LIMIT_ACCOUNT, LOGIN_WINDOW_SECONDS),
    // One account guessed from many addresses (a botnet): a higher limit across all of them.
    loginByAccount: limiter("login-acct", e.LOGIN_RATE_LIMIT_ACCOUNT_TOTAL, LOGIN_WINDOW_SECONDS),
    // How many blocks a key has had in the last day, for the growing delay (expires, so it cannot grow without bound).
    blocks: limiter("login-blocks", 1_000_000, 86_400),
  };
}

let limiters: ReturnType<typeof build> | undefined;
function get() {
  limiters ??= build();
  return limiters;
}

/** Forgets every count (tests, and a configuration reload). */
export function resetRateLimits(): void {
  limiters = undefined;
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

/** Counts one submission of a public form from this IP. */
export async function consumeFormAttempt(ip: string, form: FormName): Promise<RateDecision> {
  if (!enabled()) return { ok: true };
  try {
    await get().forms[form].consume(ipKey(ip));
    return { ok: true };
  } catch (res) {
    if (res instanceof Error) throw res;
    return { ok: false, retryAfter: retrySeconds(res) };
  }
}

function loginKeys(ip: string, email: string) {
  const account = email.trim().toLowerCase();
  const address = ipKey(ip);
  return { ip: address, accountIp: `${account}|${address}`, account };
}

/**
 * Call before checking a password: counts this attempt against the IP, the account from this IP and
 * the account from anywhere, or says how long to wait. The attempt is counted before the (slow)
 * password check, so a burst of parallel guesses cannot all slip through before the first failure
 * is recorded. Follow it with recordLoginFailure or recordLoginSuccess.
 */
export async function beginLoginAttempt(ip: string, email: string): Promise<RateDecision> {
  if (!enabled()) return { ok: true };
  const { loginByIp, loginByAccountIp, loginByAccount } = get();
  const keys = loginKeys(ip, email);
  const steps: [RateLimiterMemory, string][] = [
    [loginByIp, keys.ip],
    [loginByAccountIp, keys.accountIp],
    [loginByAccount, keys.account],
  ];
  const taken: [RateLimiterMemory, string][] = [];
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
}

/**
 * After a wrong password: the attempt stays counted. When an account (from this IP, or in total) has
 * used up its attempts, it is blocked for LOGIN_BLOCK_SECONDS, twice as long for each further block
 * within a day, up to LOGIN_BLOCK_MAX_SECONDS; after a block the count starts again.
 */
export async function recordLoginFailure(ip: string, email: string): Promise<void> {
  if (!enabled()) return;
  const { loginByAccountIp, loginByAccount, blocks, env: e } = get();
  const keys = loginKeys(ip, email);
  for (const [limiter, key, points] of [
    [loginByAccountIp, keys.accountIp, e.LOGIN_RATE_LIMIT_ACCOUNT],
    [loginByAccount, keys.account, e.LOGIN_RATE_LIMIT_ACCOUNT_TOTAL],
  ] as const) {
    const state = await limiter.get(key);
    // Exactly at the limit: failures of attempts that were already under way must not stack more blocks.
    if (state?.consumedPoints !== points) continue;
    const n = (await blocks.penalty(`${limiter.keyPrefix}|${key}`))?.consumedPoints ?? 1;
    await limiter.block(key, Math.min(e.LOGIN_BLOCK_MAX_SECONDS, e.LOGIN_BLOCK_SECONDS * 2 ** Math.min(n - 1, 16)));
  }
}

/** After a right password: the attempt is given back to the IP, and the account's counts and blocks are cleared. */
export async function recordLoginSuccess(ip: string, email: string): Promise<void> {
  if (!enabled()) return;
  const { loginByIp, loginByAccountIp, loginByAccount, blocks } = get();
  const keys = loginKeys(ip, email);
  await Promise.all([
    loginByIp.reward(keys.ip, 1),
    loginByAccountIp.delete(keys.accountIp),
    loginByAccount.delete(keys.account),
    blocks.delete(`${loginByAccountIp.keyPrefix}|${keys.accountIp}`),
    blocks.delete(`${loginByAccount.keyPrefix}|${keys.account}`),
  ]);
}

/** Headers for a 429 answer. */
export function retryAfterHeaders(decision: { retryAfter: number }): HeadersInit {
  return { "Retry-After": String(decision.retryAfter) };
}
