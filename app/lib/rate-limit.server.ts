import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "~/env.server";

/**
 * Throttling for sign-in and the public forms (in memory: one process). Route actions call these
 * and answer 429 with Retry-After (the forms keep what was typed and show RATE_LIMIT_MESSAGE).
 * Limits come from the environment (FORM_RATE_LIMIT, FORM_RATE_WINDOW, LOGIN_RATE_LIMIT_IP,
 * LOGIN_RATE_LIMIT_ACCOUNT; see .env.example). RATE_LIMIT=off switches everything off, for load
 * tests on a private network.
 */
export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

export type RateDecision = { ok: true } | { ok: false; retryAfter: number };

/** The first block after too many failures lasts this long; each further one (within a day) twice as long, up to MAX_BLOCK_SECONDS. */
const FIRST_BLOCK_SECONDS = 60;
const MAX_BLOCK_SECONDS = 3600;

function build() {
  const e = env();
  return {
    accountPoints: e.LOGIN_RATE_LIMIT_ACCOUNT,
    forms: {
      enquiry: new RateLimiterMemory({ keyPrefix: "enquiry", points: e.FORM_RATE_LIMIT, duration: e.FORM_RATE_WINDOW }),
      contact: new RateLimiterMemory({ keyPrefix: "contact", points: e.FORM_RATE_LIMIT, duration: e.FORM_RATE_WINDOW }),
    },
    // Failed sign-ins per IP per hour, whatever the account: stops one address trying many accounts.
    loginByIp: new RateLimiterMemory({ keyPrefix: "login-ip", points: e.LOGIN_RATE_LIMIT_IP, duration: 3600 }),
    // Consecutive failures per account from one IP: guessing one password. Keyed with the IP so that a
    // stranger cannot lock staff out of their own account from elsewhere.
    loginByAccount: new RateLimiterMemory({ keyPrefix: "login-acct", points: e.LOGIN_RATE_LIMIT_ACCOUNT, duration: 3600 }),
    // How many blocks this account+IP has had in the last day, for the growing delay (kept by the library, so it cannot grow without bound).
    accountBlocks: new RateLimiterMemory({ keyPrefix: "login-blocks", points: 1_000_000, duration: 86_400 }),
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

export type FormName = "enquiry" | "contact";

/** Counts one submission of a public form from this IP. */
export async function consumeFormAttempt(ip: string, form: FormName): Promise<RateDecision> {
  if (!enabled()) return { ok: true };
  try {
    await get().forms[form].consume(ip);
    return { ok: true };
  } catch (res) {
    if (res instanceof Error) throw res;
    return { ok: false, retryAfter: retrySeconds(res) };
  }
}

function accountKey(ip: string, email: string) {
  return `${email.trim().toLowerCase()}|${ip}`;
}

/** Before checking a password: is this IP, or this account from this IP, currently blocked? */
export async function checkLogin(ip: string, email: string): Promise<RateDecision> {
  if (!enabled()) return { ok: true };
  const { loginByIp, loginByAccount } = get();
  const [byIp, byAccount] = await Promise.all([loginByIp.get(ip), loginByAccount.get(accountKey(ip, email))]);
  if (byIp && byIp.remainingPoints <= 0) return { ok: false, retryAfter: retrySeconds(byIp) };
  if (byAccount && byAccount.remainingPoints <= 0) return { ok: false, retryAfter: retrySeconds(byAccount) };
  return { ok: true };
}

export async function recordLoginFailure(ip: string, email: string): Promise<void> {
  if (!enabled()) return;
  const { loginByIp, loginByAccount, accountBlocks, accountPoints } = get();
  const key = accountKey(ip, email);
  await loginByIp.penalty(ip).catch(() => undefined);
  const res = await loginByAccount.penalty(key).catch(() => undefined);
  // Exactly at the limit: failures that raced past checkLogin while a block was being set must not stack more blocks.
  if (res && res.consumedPoints === accountPoints) {
    const blocks = await accountBlocks.penalty(key).catch(() => undefined);
    const n = blocks?.consumedPoints ?? 1;
    await loginByAccount.block(key, Math.min(MAX_BLOCK_SECONDS, FIRST_BLOCK_SECONDS * 2 ** Math.min(n - 1, 16)));
  }
}

export async function recordLoginSuccess(ip: string, email: string): Promise<void> {
  if (!enabled()) return;
  const { loginByAccount, accountBlocks } = get();
  const key = accountKey(ip, email);
  await Promise.all([loginByAccount.delete(key), accountBlocks.delete(key)]);
}

/** Headers for a 429 answer. */
export function retryAfterHeaders(decision: { retryAfter: number }): HeadersInit {
  return { "Retry-After": String(decision.retryAfter) };
}
