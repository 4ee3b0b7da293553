import { onContentChanged, readContentVersion } from "~/models/content-version.server";
import { bumpSiteSettingsVersion, readSiteSettingRows, readSiteSettingsVersion, writeSiteSettings, type SettingsVersion } from "~/models/site-settings.server";
import { writeGuardSchema } from "~/schemas/write-guard";
import { changedMeanwhile, guardedWrite, type GuardedRecord } from "./write-guard.server";
import {
  SITE_SETTING_DEFAULTS,
  SITE_SETTING_FIELDS,
  SITE_SETTING_KEYS,
  siteSettingsSchema,
  siteSettingsUpdateSchema,
  type SiteSettings,
} from "~/schemas/site-settings";
import * as z from "zod/mini";
import { requireAdmin, type StaffActor } from "./actor";
import { changeSummary, record } from "./audit.server";
import { parseInput } from "./validation";

/**
 * The site's configurable facts (app/schemas/site-settings.ts): read through a small cache that is checked
 * against the database's content version, as the page cache is (server/page-cache.ts). A save moves that version,
 * so this process sees it at its commit and every other instance within POLL_MS; a page rendered with the settings
 * is never kept past them.
 */
const POLL_MS = 250;

type Cache = { values: SiteSettings | null; version: number; checkedAt: number; stale: boolean };
const cache: Cache = { values: null, version: -1, checkedAt: 0, stale: true };
onContentChanged(() => {
  cache.stale = true;
});

/** A stored value that no longer passes its check (a rule tightened since) falls back to the default. */
function fromRows(rows: { key: string; value: string }[]): SiteSettings {
  const values: Record<string, unknown> = { ...SITE_SETTING_DEFAULTS };
  for (const { key, value } of rows) {
    const field = SITE_SETTING_FIELDS[key as keyof typeof SITE_SETTING_FIELDS];
    if (!field) continue;
    try {
      const parsed = z.safeParse(field.schema, JSON.parse(value));
      if (parsed.success) values[key] = parsed.data;
    } catch {
      // Unreadable JSON: the default stands.
    }
  }
  return values as SiteSettings;
}

export async function getSiteSettings(): Promise<SiteSettings> {
  const now = Date.now();
  if (cache.values && !cache.stale && now - cache.checkedAt < POLL_MS) return cache.values;
  cache.stale = false;
  const version = await readContentVersion();
  if (!cache.values || version !== cache.version) {
    // Read after the version: a save in between shows as a newer version at the next check, never as an older value kept.
    cache.values = fromRows(await readSiteSettingRows());
    cache.version = version;
  }
  cache.checkedAt = now;
  return cache.values;
}

/**
 * For the public pages (the frame's figures in the header, footer and hero; the home page's, /contact's and
 * /privacy's own): with the database away a page that reads more answers 503 with its "Try Again", and these must
 * not fail first (the home page hides what it cannot read and stays 200). The last values read, or the defaults.
 */
export async function siteSettingsForPublicPages(): Promise<SiteSettings> {
  try {
    return await getSiteSettings();
  } catch {
    return cache.values ?? SITE_SETTING_DEFAULTS;
  }
}

/** Forgets what this process read (tests that change the table behind its back). */
export function forgetSiteSettingsCache(): void {
  cache.values = null;
  cache.stale = true;
}

/** The settings as stored, with their one version: what the screen and the API show staff. */
export type VersionedSiteSettings = SiteSettings & SettingsVersion;

async function readVersioned(): Promise<VersionedSiteSettings> {
  const [rows, version] = await Promise.all([readSiteSettingRows(), readSiteSettingsVersion()]);
  return { ...fromRows(rows), ...version };
}

/** The settings under the write rule (write-guard.server.ts): "These site settings were changed by … Here is what they hold now." */
const settingsRecord: GuardedRecord<VersionedSiteSettings> = {
  thing: "site settings",
  plural: true,
  scope: "settings",
  read: readVersioned,
  notFoundName: "Settings",
  answer: (now) => now,
};

/**
 * Admins only (the screen and the API). `partial`: the API's PUT, where keys left out keep their value; the
 * screen sends every key. A save drawn from an older version of the settings (another admin's save since, whichever
 * keys it changed) is refused with what they hold now; a repeat of the same form post changes nothing. Audited with
 * the keys that changed.
 */
export async function updateSiteSettings(actor: StaffActor, input: unknown, { partial = false } = {}): Promise<VersionedSiteSettings> {
  requireAdmin(actor);
  // The screen sends every key; a key it did not send at all (a form drawn before the setting existed) keeps its value.
  const current = partial ? null : await getSiteSettings();
  const filled =
    current && input && typeof input === "object"
      ? { ...Object.fromEntries(SITE_SETTING_KEYS.filter((k) => !(k in input)).map((k) => [k, current[k]])), ...input }
      : input;
  const sent = partial ? parseInput(siteSettingsUpdateSchema, input) : parseInput(siteSettingsSchema, filled);
  const values = Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined));
  await guardedWrite(
    settingsRecord,
    parseInput(writeGuardSchema, input),
    async (before) => {
      const after = { ...before, ...values } as SiteSettings;
      const summary = changeSummary(before, after, Object.fromEntries(SITE_SETTING_KEYS.map((key) => [key, SITE_SETTING_FIELDS[key].label])));
      if (summary === "No changes") return;
      if (!(await bumpSiteSettingsVersion({ version: before.version, updatedBy: actor.user.name }))) await changedMeanwhile(settingsRecord);
      await writeSiteSettings(values, actor.user.name);
      await record(actor, "update", "settings", null, summary);
    },
    () => undefined,
  );
  forgetSiteSettingsCache();
  return readVersioned();
}

/** What the screen and GET /api/settings show: admins only. */
export async function readSiteSettingsAsAdmin(actor: StaffActor): Promise<VersionedSiteSettings> {
  requireAdmin(actor);
  return readVersioned();
}
