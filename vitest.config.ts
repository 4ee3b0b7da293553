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
    // MySQL runs share one server; keep its files one after another to stay within its connection limit.
    fileParallelism: !process.env.TEST_MYSQL_URL,
  },
});
