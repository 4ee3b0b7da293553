import { afterCommit, beforeCommit, db } from "~db/client.server";

/**
 * The public pages' content version (migration 0011). Every model function that writes courses, batches (seats
 * included) or reviews calls contentChanged(), so no write path can forget it; the page cache compares versions.
 */
const listeners = new Set<() => void>();

/** Moves the version on, once per transaction and at its end; this process's listeners hear of it after the commit. */
export async function contentChanged(): Promise<void> {
  await beforeCommit("content-version", async () => {
    await db()
      .updateTable("content_version")
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .where("id", "=", 1)
      .execute();
  });
  afterCommit(() => {
    for (const listener of listeners) listener();
  });
}

export async function readContentVersion(): Promise<number> {
  const row = await db().selectFrom("content_version").select("version").where("id", "=", 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** Calls `listener` after each committed content change made by this process (other processes: poll the version). */
export function onContentChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
