import { db, dialect } from "~db/client.server";
import { nowIso } from "~/util/ids";
import { contentChanged } from "./content-version.server";
import { nextVersion, versionOf, type VersionedWrite } from "./versioning.server";

/** The one version of the whole set of settings (migration 0120): a stale settings form is refused whichever key it changes. */
export type SettingsVersion = { version: number; updatedAt: string; updatedBy: string | null };

export async function readSiteSettingsVersion(): Promise<SettingsVersion> {
  const row = await db().selectFrom("site_settings_version").selectAll().where("id", "=", "site").executeTakeFirst();
  return row ? { ...versionOf(row), updatedAt: row.updatedAt } : { version: 1, updatedAt: nowIso(), updatedBy: null };
}

/**
 * Moves the settings' version by one (with `guard.version`, only if it is still that one): false when another save
 * got there first. Called before the values are written, in the same transaction; its row lock orders two saves.
 */
export async function bumpSiteSettingsVersion(guard: VersionedWrite): Promise<boolean> {
  let update = db().updateTable("site_settings_version").set(nextVersion(guard.updatedBy)).where("id", "=", "site");
  if (guard.version !== undefined) update = update.where("version", "=", guard.version);
  if (Number((await update.executeTakeFirst()).numUpdatedRows) === 1) return true;
  // A database restored from before migration 0120's row existed has none: the first save makes it.
  const exists = await db().selectFrom("site_settings_version").select("id").where("id", "=", "site").executeTakeFirst();
  if (exists) return false;
  await db().insertInto("site_settings_version").values({ id: "site", version: 2, updatedAt: nowIso(), updatedBy: guard.updatedBy }).execute();
  return guard.version === undefined || guard.version === 1;
}

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
