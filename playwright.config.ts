import { defineConfig, devices } from "@playwright/test";
import { E2E_BASE_URL, E2E_PORT, E2E_PUBLIC_BASE_URL, E2E_PUBLIC_PORT } from "./tests/e2e/env";

const PUBLIC_SPECS = /(^|\/)(public-[^/]*|home)\.spec\.ts$/;

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  // One retry on CI only: the suite shares two cores with two servers and a browser, and a test that fails
  // and then passes is still listed as "flaky" in the report. A test that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  // 15 s on CI: a CI machine busier than expected (a run of 81 minutes instead of 35) saw a saved form's
  // confirmation arrive after 7 s. Only a failing check waits that long.
  expect: { timeout: process.env.CI ? 15_000 : 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: chromiumArgs },
  },
  // JavaScript on or off is chosen per test with test.use({ javaScriptEnabled }).
  projects: [
    { name: "public", testMatch: PUBLIC_SPECS, use: { ...devices["Desktop Chrome"], baseURL: E2E_PUBLIC_BASE_URL } },
    { name: "staff", testIgnore: PUBLIC_SPECS, use: { ...devices["Desktop Chrome"], baseURL: E2E_BASE_URL } },
  ],
  webServer: [E2E_PORT, E2E_PUBLIC_PORT].map((port) => ({
    command: "node tests/e2e/start-server.js",
    env: { E2E_PORT: String(port) },
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  })),
  metadata: { port: E2E_PORT },
});
