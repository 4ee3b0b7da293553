/**
 * Lints the API's OpenAPI document as the server generates it (app/web/openapi.server.ts): writes it to a temporary
 * file and runs Redocly's `recommended-strict` ruleset on it (redocly.yaml), which fails on any error or warning.
 * Offline: telemetry and the update check are off, and the ruleset is built into the package.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "~/web/openapi.server";

const root = path.resolve(import.meta.dirname, "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
const file = path.join(dir, "openapi.json");
try {
  fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  const cli = path.join(root, "node_modules/@redocly/cli/bin/cli.js");
  const result = spawnSync(process.execPath, [cli, "lint", file, "--config", path.join(root, "redocly.yaml"), "--format", "codeframe"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  process.exitCode = result.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
