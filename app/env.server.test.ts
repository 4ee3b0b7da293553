import { describe, expect, it } from "vitest";
import { loadEnv } from "./env.server";

describe("loadEnv", () => {
  it("applies the documented defaults", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 3000, HOST: "0.0.0.0", DATABASE_URL: "file:./data/app.db", UPLOAD_DIR: "./data/uploads", SEED_DEMO: true });
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("requires a long SESSION_SECRET in production and names the variable", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET: is required in production/);
    expect(() => loadEnv({ NODE_ENV: "production", SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET: must be at least 32 characters/);
    expect(loadEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) }).SESSION_SECRET).toBe("x".repeat(32));
  });

  it("names each bad variable", () => {
    expect(() => loadEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadEnv({ DATABASE_URL: "postgres://x" })).toThrow(/DATABASE_URL: must start with file:/);
    expect(() => loadEnv({ SEED_DEMO: "maybe" })).toThrow(/SEED_DEMO: must be true or false/);
    expect(() => loadEnv({ ADMIN_EMAIL: "not-an-email" })).toThrow(/ADMIN_EMAIL/);
    expect(() => loadEnv({ ADMIN_PASSWORD: "short" })).toThrow(/ADMIN_PASSWORD: must be at least 8 characters/);
  });

  it("reads booleans and treats empty values as unset", () => {
    expect(loadEnv({ SEED_DEMO: "false", ADMIN_EMAIL: "" }).SEED_DEMO).toBe(false);
    expect(loadEnv({ DATABASE_URL: "mysql://root@127.0.0.1:3306/app" }).DATABASE_URL).toBe("mysql://root@127.0.0.1:3306/app");
  });

  it("stops an https PUBLIC_URL without TRUST_PROXY: the server speaks HTTP, so a TLS proxy is in front", () => {
    for (const trust of [undefined, "", "false", "0", "FALSE"]) {
      expect(() => loadEnv({ PUBLIC_URL: "https://www.example.in", TRUST_PROXY: trust }), String(trust)).toThrow(
        /TRUST_PROXY: must be set when PUBLIC_URL is https/,
      );
    }
    for (const trust of ["true", "1", "2", "10.0.0.0/8", "loopback"])
      expect(loadEnv({ PUBLIC_URL: "https://www.example.in", TRUST_PROXY: trust }).TRUST_PROXY).toBe(trust);
    expect(loadEnv({ PUBLIC_URL: "http://localhost:3000" }).TRUST_PROXY).toBe("false");
  });

  it("says when PUBLIC_URL was left unset, so the start and the dashboard can warn", () => {
    expect(loadEnv({}).PUBLIC_URL_DEFAULTED).toBe(true);
    expect(loadEnv({ PUBLIC_URL: "" }).PUBLIC_URL_DEFAULTED).toBe(true);
    expect(loadEnv({ PUBLIC_URL: "https://www.example.in", TRUST_PROXY: "true" }).PUBLIC_URL_DEFAULTED).toBe(false);
  });
});

describe("loadEnv: e-mail and webhooks", () => {
  it("defaults to nothing sent, from the institute's name", () => {
    const env = loadEnv({});
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toBe("CyberSOC Academy <no-reply@localhost>");
    expect(env.NOTIFY_EMAIL).toBeUndefined();
    expect(env.WEBHOOK_URL).toBeUndefined();
  });

  it("reads SMTP_URL, lists and a secret in either form", () => {
    const env = loadEnv({
      SMTP_URL: "smtps://user:pass@mail.example.com:465",
      NOTIFY_EMAIL: " desk@example.com, Owner@Example.com ,",
      WEBHOOK_URL: "https://crm.example.com/hooks, http://10.0.0.5:8080/in",
      WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 7).toString("base64")}`,
    });
    expect(env.NOTIFY_EMAIL).toEqual(["desk@example.com", "owner@example.com"]);
    expect(env.WEBHOOK_URL).toEqual(["https://crm.example.com/hooks", "http://10.0.0.5:8080/in"]);
    expect(loadEnv({ WEBHOOK_URL: "https://x.example/h", WEBHOOK_SECRET: "p".repeat(32) }).WEBHOOK_SECRET).toBe("p".repeat(32));
  });

  it("names each bad value", () => {
    expect(() => loadEnv({ SMTP_URL: "mail.example.com:587" })).toThrow(/SMTP_URL: must be smtp:\/\//);
    expect(() => loadEnv({ SMTP_URL: "http://mail.example.com" })).toThrow(/SMTP_URL/);
    expect(() => loadEnv({ MAIL_FROM: "a@b.in, c@d.in" })).toThrow(/MAIL_FROM: must be one address/);
    expect(() => loadEnv({ NOTIFY_EMAIL: "desk@example.com, not an address" })).toThrow(/NOTIFY_EMAIL/);
    expect(() => loadEnv({ WEBHOOK_URL: "ftp://x.example", WEBHOOK_SECRET: "p".repeat(32) })).toThrow(/WEBHOOK_URL: must be http\(s\) URLs/);
    expect(() => loadEnv({ WEBHOOK_URL: "https://x.example/h" })).toThrow(/WEBHOOK_SECRET: is required when WEBHOOK_URL is set/);
    expect(() => loadEnv({ WEBHOOK_SECRET: "short" })).toThrow(/WEBHOOK_SECRET: must be at least 32 characters/);
    expect(() => loadEnv({ WEBHOOK_SECRET: "whsec_not*base64*at*all*but*long*enough" })).toThrow(/WEBHOOK_SECRET: must be whsec_ followed by base64/);
    expect(() => loadEnv({ WEBHOOK_SECRET: `whsec_${Buffer.alloc(21, 1).toString("base64")}` })).toThrow(/at least 24 bytes/);
  });

  it("takes DIGEST_HOUR as a whole hour from 0 to 23, 9 by default", () => {
    expect(loadEnv({}).DIGEST_HOUR).toBe(9);
    expect(loadEnv({ DIGEST_HOUR: "0" }).DIGEST_HOUR).toBe(0);
    expect(loadEnv({ DIGEST_HOUR: "23" }).DIGEST_HOUR).toBe(23);
    for (const bad of ["24", "-1", "8.5", "nine"]) expect(() => loadEnv({ DIGEST_HOUR: bad })).toThrow(/DIGEST_HOUR: must be a whole hour from 0 to 23/);
  });

  it("takes WAITLIST_OFFER_HOURS as a whole number of hours from 1 to 720, 48 by default", () => {
    expect(loadEnv({}).WAITLIST_OFFER_HOURS).toBe(48);
    expect(loadEnv({ WAITLIST_OFFER_HOURS: "1" }).WAITLIST_OFFER_HOURS).toBe(1);
    expect(loadEnv({ WAITLIST_OFFER_HOURS: "720" }).WAITLIST_OFFER_HOURS).toBe(720);
    for (const bad of ["0", "721", "1.5", "two days"])
      expect(() => loadEnv({ WAITLIST_OFFER_HOURS: bad })).toThrow(/WAITLIST_OFFER_HOURS: must be a whole number of hours from 1 to 720/);
  });
});

describe("loadEnv: backups", () => {
  it("makes no backups by itself unless BACKUP_EVERY_HOURS is set, and keeps 7 daily and 4 weekly archives", () => {
    expect(loadEnv({})).toMatchObject({ BACKUP_DIR: "./data/backups", BACKUP_EVERY_HOURS: 0, BACKUP_KEEP: { days: 7, weeks: 4 } });
    expect(loadEnv({ BACKUP_EVERY_HOURS: "24", BACKUP_KEEP: "14d" })).toMatchObject({ BACKUP_EVERY_HOURS: 24, BACKUP_KEEP: { days: 14, weeks: 0 } });
  });

  it("names a bad value", () => {
    expect(() => loadEnv({ BACKUP_EVERY_HOURS: "1.5" })).toThrow(/BACKUP_EVERY_HOURS: must be a whole number of hours from 0 \(off\) to 720/);
    expect(() => loadEnv({ BACKUP_EVERY_HOURS: "-1" })).toThrow(/BACKUP_EVERY_HOURS/);
    expect(() => loadEnv({ BACKUP_KEEP: "forever" })).toThrow(/BACKUP_KEEP: must say how many daily and weekly archives to keep, such as 7d,4w/);
  });

  it("needs a BACKUP_KEY of 32 characters or more, and one in production when the app makes backups itself", () => {
    const production = { NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) };
    expect(() => loadEnv({ BACKUP_KEY: "short" })).toThrow(/BACKUP_KEY: must be at least 32 characters long/);
    expect(() => loadEnv({ ...production, BACKUP_EVERY_HOURS: "24" })).toThrow(/BACKUP_KEY: is required in production when BACKUP_EVERY_HOURS is set/);
    expect(loadEnv({ ...production, BACKUP_EVERY_HOURS: "24", BACKUP_KEY: "k".repeat(32) }).BACKUP_KEY).toBe("k".repeat(32));
    // Without a schedule the app signs nothing, and outside production npm run backup keeps a key in data/backup-key.
    expect(loadEnv(production).BACKUP_KEY).toBeUndefined();
    expect(loadEnv({ BACKUP_EVERY_HOURS: "24" }).BACKUP_KEY).toBeUndefined();
  });
});
