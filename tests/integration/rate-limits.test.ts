import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadEnv } from "~/env.server";
import { beginLoginAttempt, consumeFormAttempt, ipKey, recordLoginFailure, recordLoginSuccess, resetRateLimits } from "~/infra/rate-limit.server";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";

/**
 * The throttling rules in isolation, with the limits taken from the environment: per-IP form limits,
 * per account+IP and per account sign-in blocks that double each time, a per-IP sign-in ceiling,
 * attempts counted before the password check, IPv6 counted per /64, and bad settings refused.
 * The counts live in the database (rate-limit-store.test.ts covers restarts and sharing).
 */
Object.assign(process.env, {
  RATE_LIMIT: "on",
  FORM_RATE_LIMIT: "2",
  FORM_RATE_WINDOW: "60",
  LOGIN_RATE_LIMIT_ACCOUNT: "3",
  LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: "6",
  LOGIN_RATE_LIMIT_IP: "20",
  LOGIN_BLOCK_SECONDS: "60",
  LOGIN_BLOCK_MAX_SECONDS: "3600",
});

// A fresh migrated database for this file (named apart from React hooks for the linter).
setupTestDatabase();

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
  await resetRateLimits();
});
afterEach(() => {
  vi.useRealTimers();
});

/** One wrong password, the way the sign-in routes do it. */
async function fail(ip: string, email: string) {
  expect(await beginLoginAttempt(ip, email), `${email} from ${ip} should be let through`).toEqual({ ok: true });
  await recordLoginFailure(ip, email);
}

async function failTimes(ip: string, email: string, n: number) {
  for (let i = 0; i < n; i++) await fail(ip, email);
}

/** Seconds to wait, or 0 when the attempt is let through (it then counts as a failure). */
async function waitFor(ip: string, email: string): Promise<number> {
  const d = await beginLoginAttempt(ip, email);
  if (d.ok) await recordLoginFailure(ip, email);
  return d.ok ? 0 : d.retryAfter;
}

describe("form limits", () => {
  it("counts each form per IP within the window", async () => {
    expect(await consumeFormAttempt("1.1.1.1", "enquiry")).toEqual({ ok: true });
    expect(await consumeFormAttempt("1.1.1.1", "enquiry")).toEqual({ ok: true });
    const third = await consumeFormAttempt("1.1.1.1", "enquiry");
    expect(third.ok).toBe(false);
    expect(third.ok === false && third.retryAfter).toBeGreaterThan(50);
    expect(await consumeFormAttempt("1.1.1.1", "contact")).toEqual({ ok: true });
    expect(await consumeFormAttempt("2.2.2.2", "enquiry")).toEqual({ ok: true });
    vi.advanceTimersByTime(61_000);
    expect(await consumeFormAttempt("1.1.1.1", "enquiry")).toEqual({ ok: true });
  });

  it("counts an IPv6 client per /64, so rotating addresses inside it does not help", async () => {
    expect(await consumeFormAttempt("2001:db8:1:2:aaaa::1", "contact")).toEqual({ ok: true });
    expect(await consumeFormAttempt("2001:0db8:0001:0002:bbbb:cccc:dddd:eeee", "contact")).toEqual({ ok: true });
    expect((await consumeFormAttempt("2001:db8:1:2::3", "contact")).ok).toBe(false);
    expect(await consumeFormAttempt("2001:db8:1:3::1", "contact")).toEqual({ ok: true });
  });

  it("keys addresses: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64", () => {
    expect(ipKey("203.0.113.9")).toBe("203.0.113.9");
    expect(ipKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(ipKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipKey("2001:DB8:0:0:1::1")).toBe("2001:db8:0:0::/64");
    expect(ipKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(ipKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("sign-in limits", () => {
  it("blocks an account from an IP after the limit, each block twice as long, until a success clears it", async () => {
    const ip = "3.3.3.3";
    const email = "Staff@Example.com";
    await failTimes(ip, email, 2);
    const waits: number[] = [];
    for (let block = 0; block < 3; block++) {
      await failTimes(ip, email, block === 0 ? 1 : 3);
      const wait = await waitFor(ip, " staff@example.com ");
      waits.push(wait);
      vi.advanceTimersByTime(wait * 1000 + 1000);
    }
    expect(waits).toEqual([60, 120, 240]);
    // The same account from another address is not locked out by this one.
    expect(await beginLoginAttempt("4.4.4.4", email)).toEqual({ ok: true });
    await recordLoginSuccess("4.4.4.4", email);
    // A success clears the account's counts and blocks: the next block is a short one again.
    await recordLoginSuccess(ip, email);
    await failTimes(ip, email, 3);
    expect(await waitFor(ip, email)).toBe(60);
  });

  it("blocks an account guessed from many addresses, everywhere, with the same growing delay", async () => {
    const email = "target@example.com";
    for (let i = 0; i < 6; i++) await fail(`10.0.0.${i}`, email);
    expect(await waitFor("10.9.9.9", email)).toBe(60);
    vi.advanceTimersByTime(61_000);
    for (let i = 0; i < 6; i++) await fail(`10.0.1.${i}`, email);
    expect(await waitFor("10.9.9.9", email)).toBe(120);
    // Other accounts are not affected.
    expect(await beginLoginAttempt("10.9.9.9", "someone@example.com")).toEqual({ ok: true });
  });

  it("blocks an IP that fails across many accounts", async () => {
    const ip = "5.5.5.5";
    for (let i = 0; i < 20; i++) await fail(ip, `user${i}@example.com`);
    const d = await beginLoginAttempt(ip, "fresh@example.com");
    expect(d.ok).toBe(false);
    expect(d.ok === false && d.retryAfter).toBeGreaterThan(3000);
  });

  it("counts each attempt before its password is checked, so a parallel burst gets no more tries than the limit", async () => {
    const decisions = await Promise.all(Array.from({ length: 50 }, () => beginLoginAttempt("6.6.6.6", "burst@example.com")));
    expect(decisions.filter((d) => d.ok)).toHaveLength(3);
    expect(decisions.filter((d) => !d.ok).every((d) => !d.ok && d.retryAfter > 0)).toBe(true);
  });

  it("does not count successful sign-ins against the IP", async () => {
    for (let i = 0; i < 40; i++) {
      expect(await beginLoginAttempt("7.7.7.7", "busy@example.com")).toEqual({ ok: true });
      await recordLoginSuccess("7.7.7.7", "busy@example.com");
    }
  });
});

describe("configuration", () => {
  it("refuses limits that are not positive whole numbers, naming the variable", () => {
    for (const [name, value] of [
      ["FORM_RATE_LIMIT", "abc"],
      ["FORM_RATE_WINDOW", "0"],
      ["LOGIN_RATE_LIMIT_IP", "-5"],
      ["LOGIN_RATE_LIMIT_ACCOUNT", "2.5"],
      ["LOGIN_RATE_LIMIT_ACCOUNT_TOTAL", "0"],
      ["LOGIN_BLOCK_SECONDS", "x"],
      ["LOGIN_BLOCK_MAX_SECONDS", "-1"],
    ]) {
      expect(() => loadEnv({ [name]: value }), name).toThrow(new RegExp(`${name}: must be`));
    }
    expect(loadEnv({})).toMatchObject({
      FORM_RATE_LIMIT: 10,
      FORM_RATE_WINDOW: 600,
      LOGIN_RATE_LIMIT_IP: 50,
      LOGIN_RATE_LIMIT_ACCOUNT: 5,
      LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: 20,
      LOGIN_BLOCK_SECONDS: 60,
      LOGIN_BLOCK_MAX_SECONDS: 3600,
      RATE_LIMIT: "on",
    });
  });
});
