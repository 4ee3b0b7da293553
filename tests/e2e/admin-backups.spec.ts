import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, db, openDb } from "~db/client.server";
import { blockAppScripts, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { ADMIN, portFor, startServer, type TestServer } from "./servers";

/**
 * The dashboard's backup warning as staff see it: a server of its own backs up every hour (its first archive at
 * start); while that one is fresh the dashboard says nothing about backups, and once the last good backup is
 * three hours old and the attempts since have failed, the dashboard says backups have stopped and why, with
 * JavaScript on and off, at phone and desktop widths, without WCAG violations.
 */
const OFFSET = 21;
test.use({ baseURL: `http://127.0.0.1:${portFor(OFFSET)}` });
let server: TestServer;
let backupDir = "";

async function withDb<T>(work: () => Promise<T>): Promise<T> {
  await openDb(`file:${server.dbFile}`);
  try {
    return await work();
  } finally {
    await closeDb();
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "soc-backups-e2e-"));
  server = await startServer(OFFSET, { BACKUP_EVERY_HOURS: "1", BACKUP_DIR: backupDir, BACKUP_KEY: "e2e-backup-key-0123456789-0123456789-0123456789" });
  await expect.poll(async () => (await (await fetch(`${server.url}/healthz?deep=1`)).json()).backups?.state, { timeout: 30_000 }).toBe("ok");
});

test.afterAll(async () => {
  await server?.stop();
  if (backupDir) fs.rmSync(backupDir, { recursive: true, force: true });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Backup warning, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("absent while backups are fresh, shown with the reason once they stop", async ({ page }) => {
      await withDb(() => db().deleteFrom("backup_runs").where("runner", "=", "e2e").execute());
      await withDb(() => db().updateTable("backup_runs").set({ snapshotAt: new Date().toISOString(), finishedAt: new Date().toISOString() }).execute());
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.goto("/admin/dashboard");
      await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      await expect(page.getByTestId("backup-warning")).toHaveCount(0);

      const old = new Date(Date.now() - 3 * 3_600_000).toISOString();
      await withDb(async () => {
        await db().updateTable("backup_runs").set({ snapshotAt: old, finishedAt: old }).execute();
        await db()
          .insertInto("backup_runs")
          .values({
            id: `scheduled:e2e-${javaScriptEnabled}`,
            kind: "scheduled",
            status: "failed",
            attempts: 3,
            startedAt: new Date().toISOString(),
            finishedAt: new Date().toISOString(),
            runner: "e2e",
            error: "EACCES: permission denied, mkdir '/mnt/backups'",
          })
          .execute();
      });
      await page.reload();
      const warning = page.getByRole("region", { name: "Backups have stopped" });
      await expect(warning).toBeVisible();
      await expect(warning).toContainText(/The last good backup is from .* \(3 h ago\): backups have stopped\. Backups are due every 1 hour into /);
      await expect(warning).toContainText("failed: EACCES: permission denied, mkdir '/mnt/backups'");
      expect((await fetch(`${server.url}/healthz?deep=1`)).status).toBe(503);

      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `/tmp/backup-warning-${width}-js-${javaScriptEnabled ? "on" : "off"}.png`, fullPage: false });
      }
      if (javaScriptEnabled) {
        // axe runs as a script in the page: the page as the server sent it, without the app's scripts.
        await blockAppScripts(page);
        await page.reload();
        await expectNoAxeViolations(page, "dashboard with the backup warning");
      }
    });
  });
}
