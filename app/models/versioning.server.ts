import { sql } from "kysely";
import { nowIso } from "~/util/ids";

/**
 * Records staff edit carry a `version` (migrations 0015 and 0120): every change adds one, with who made it. A write
 * drawn from a version passes it, and its UPDATE then also says `WHERE version = ?`: of two writers that read the
 * same version, exactly one changes the row, on both databases, across instances.
 */

/** What a versioned change sets besides its own columns: one more version, who made it, when. */
export function nextVersion(updatedBy: string | null, updatedAt = nowIso()) {
  // An expression where Kysely's Updateable types expect a number: `never` lets it stand in any row's values.
  return { version: sql<number>`${sql.ref("version")} + 1` as never, updatedBy: updatedBy === null ? null : updatedBy.slice(0, 254), updatedAt };
}

/** A write's guard as the models take it: the version it was drawn from (none: whatever is stored) and who writes. */
export type VersionedWrite = { version?: number; updatedBy: string | null };

/** A record's version fields as read. */
export const versionOf = (row: { version: number | string; updatedBy: string | null }) => ({ version: Number(row.version), updatedBy: row.updatedBy ?? null });
