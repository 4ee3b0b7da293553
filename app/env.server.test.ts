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
});
