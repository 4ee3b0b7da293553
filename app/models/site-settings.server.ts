import { db, dialect } from "~db/client.server";
import { nowIso } from "~/util/ids";
import { contentChanged } from "./content-version.server";

/** The site_settings table (migration 0030): one row per key set by staff, the value as JSON text. */

export async function readSiteSettingRows(): Promise<{ key: string; value: string }[]> {
  return db().selectFrom("site_settings").select(["key", "value"]).execute();
}

/**
 * Sets each key to its value (JSON), inserting or replacing its row. Public pages show settings (the privacy
 * contact on /privacy), so this moves the content version: every instance's page cache and settings cache renew.
 */
export async function writeSiteSettings(values: Record<string, unknown>, updatedBy: string): Promise<void> {
  const updatedAt = nowIso();
  for (const [key, raw] of Object.entries(values)) {
    const row = { key, value: JSON.stringify(raw), updatedAt, updatedBy: updatedBy.slice(0, 254) };
    const set = { value: row.value, updatedAt, updatedBy: row.updatedBy };
    const insert = db().insertInto("site_settings").values(row);
    await (dialect() === "mysql" ? insert.onDuplicateKeyUpdate(set) : insert.onConflict((oc) => oc.column("key").doUpdateSet(set))).execute();
  }
  await contentChanged();
}
