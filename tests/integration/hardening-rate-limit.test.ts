import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadEnv } from "~/env.server";
import { checkLogin, consumeFormAttempt, recordLoginFailure, recordLoginSuccess, resetRateLimits } from "~/lib/rate-limit.server";

/**
 * The throttling rules in isolation, with the limits taken from the environment: per-IP form limits,
 * per account+IP sign-in blocks that double each time, a per-IP sign-in ceiling, and bad settings refused.
 */
Object.assign(process.env, { RATE_LIMIT: "on", FORM_RATE_LIMIT: "2", FORM_RATE_WINDOW: "60", LOGIN_RATE_LIMIT_ACCOUNT: "3", LOGIN_RATE_LIMIT_IP: "20" });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
  resetRateLimits();
});
afterEach(() => {
  vi.useRealTimers();
});

async function failTimes(ip: string, email: string, n: number) {
  for (let i = 0; i < n; i++) await recordLoginFailure(ip, email);
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
});

describe("sign-in limits", () => {
  it("blocks an account from an IP after the limit, each block twice as long, until a success clears it", async () => {
    const ip = "3.3.3.3";
    const email = "Staff@Example.com";
    await failTimes(ip, email, 2);
    expect(await checkLogin(ip, email)).toEqual({ ok: true });
    const waits: number[] = [];
    for (let block = 0; block < 3; block++) {
      await failTimes(ip, email, 3);
      const d = await checkLogin(ip, " staff@example.com ");
      expect(d.ok).toBe(false);
      const wait = d.ok ? 0 : d.retryAfter;
      waits.push(wait);
      vi.advanceTimersByTime(wait * 1000 + 1000);
      expect(await checkLogin(ip, email)).toEqual({ ok: true });
    }
    expect(waits).toEqual([60, 120, 240]);
    // The same account from another address is not locked out by this one.
    expect(await checkLogin("4.4.4.4", email)).toEqual({ ok: true });
    await recordLoginSuccess(ip, email);
    await failTimes(ip, email, 3);
    const after = await checkLogin(ip, email);
    expect(after.ok === false && after.retryAfter).toBe(60);
  });

  it("blocks an IP that fails across many accounts", async () => {
    const ip = "5.5.5.5";
    for (let i = 0; i < 20; i++) await recordLoginFailure(ip, `user${i}@example.com`);
    const d = await checkLogin(ip, "fresh@example.com");
    expect(d.ok).toBe(false);
    expect(d.ok === false && d.retryAfter).toBeGreaterThan(3000);
  });
});

describe("configuration", () => {
  it("refuses limits that are not positive whole numbers, naming the variable", () => {
    for (const [name, value] of [
      ["FORM_RATE_LIMIT", "abc"],
      ["FORM_RATE_WINDOW", "0"],
      ["LOGIN_RATE_LIMIT_IP", "-5"],
      ["LOGIN_RATE_LIMIT_ACCOUNT", "2.5"],
    ]) {
      expect(() => loadEnv({ [name]: value }), name).toThrow(new RegExp(`${name}: must be`));
    }
    expect(loadEnv({})).toMatchObject({ FORM_RATE_LIMIT: 10, FORM_RATE_WINDOW: 600, LOGIN_RATE_LIMIT_IP: 50, LOGIN_RATE_LIMIT_ACCOUNT: 5, RATE_LIMIT: "on" });
  });
});
