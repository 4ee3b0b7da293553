import path from "node:path";
import { defineConfig } from "vitest/config";

// No React Router plugin here: unit and integration tests import modules directly.
export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "~db": path.resolve(import.meta.dirname, "db"),
    },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "server/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/helpers/setup-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two files at a time, on SQLite and on MySQL/MariaDB alike: Vitest's default on a 2-core machine is one, and
    // most files wait on servers, timers and the database (the CPU was half idle; CI took 84 minutes of its 90).
    // Each MySQL file has a database of its own; two files use about 80 of MariaDB's 151 connections.
    maxWorkers: 2,
  },
});
