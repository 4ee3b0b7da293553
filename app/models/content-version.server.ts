import { afterCommit, beforeCommit, db } from "~db/client.server";

/**
 * The public pages' content version (migration 0011). Every model function that writes courses, batches (seats
 * included) or reviews calls contentChanged(), so no write path can forget it; the page cache compares versions.
 */

/**
 * How the page cache (server/page-cache.ts) moves its HTML pages to the new version (the API's anonymous reads
 * always move at once: an integration reads its own write next):
 * - "after-warming": it renders the public pages it keeps for the new version in the background and serves the
 *   previous version's copies until each is ready (a few seconds at most); the changed thing's own pages (see
 *   ContentKey) are not among them. For changes that only add or edit what is public: an edit, a publish, a review
 *   approved, a seat taken.
 * - "at-once": no copy from before the change is served again. For changes that take something off the public
 *   pages: an unpublish, a delete, anything removing personal data. The default, so a new caller is safe.
 * Several changes in one transaction: at-once wins.
 */
export type ContentSwitch = "after-warming" | "at-once";

/**
 * A record a change touched, for the caches that keep its own pages (a course's page, a batch's calendar file):
 * those switch at once on this process, as RFC 9111 §4.4 asks of a cache that saw the unsafe request. The web
 * layer maps each to its addresses (app/web/public-pages.ts).
 */
export type ContentKey = { course: string } | { batch: string };

/**
 * What a listener hears: the records touched, and whether the change was committed by this process (at its commit)
 * or found in the database (another instance's, at a read of the version).
 */
export type ContentChange = { touched: readonly ContentKey[]; committedHere: boolean };

const listeners = new Set<(change: ContentChange) => void>();

/** Moves the version on, once per transaction and at its end; this process's listeners hear of it after the commit. */
export async function contentChanged(opts: { switch?: ContentSwitch; touched?: readonly ContentKey[] } = {}): Promise<void> {
  await beforeCommit("content-version", async () => {
    await db()
      .updateTable("content_version")
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", 1)
      .execute();
  });
  // A second statement, after the one above (hooks run in the order first asked for): MySQL and SQLite differ
  // in which value of `version` a second assignment in the same UPDATE would read.
  if ((opts.switch ?? "at-once") === "at-once") {
    await beforeCommit("content-version-at-once", async () => {
      await db()
        .updateTable("content_version")
        .set((eb) => ({ atOnceVersion: eb.ref("version") }))
        .where("id", "=", 1)
        .execute();
    });
  }
  const change: ContentChange = { touched: opts.touched ?? [], committedHere: true };
  afterCommit(() => {
    for (const listener of listeners) listener(change);
  });
}

export async function readContentVersion(): Promise<number> {
  return (await readContentState()).version;
}

/** The newest version any read in this process has seen (null before the first). */
let lastSeen: number | null = null;

/**
 * The version, and the version of the newest change that must switch the public pages at once. A read that finds
 * a newer version than this process had seen (another instance's change) tells the listeners too, so every cache
 * in the process moves on together: the page cache must not render a page for the new version from a settings
 * cache that has not looked yet (it would keep the old values under the new version until the next change).
 */
export async function readContentState(): Promise<{ version: number; atOnceVersion: number }> {
  const row = await db().selectFrom("content_version").select(["version", "atOnceVersion"]).where("id", "=", 1).executeTakeFirst();
  const state = { version: Number(row?.version ?? 0), atOnceVersion: Number(row?.atOnceVersion ?? 0) };
  const moved = lastSeen !== null && state.version > lastSeen;
  if (lastSeen === null || state.version > lastSeen) lastSeen = state.version;
  if (moved) for (const listener of listeners) listener({ touched: [], committedHere: false });
  return state;
}

/**
 * Calls `listener` after each committed content change made by this process, and when a read of the version finds
 * another process's (other processes are seen only when the version is read: poll it).
 */
export function onContentChanged(listener: (change: ContentChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
