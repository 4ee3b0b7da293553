/**
 * How many backup archives to keep (BACKUP_KEEP, e.g. "7d,4w"), and which: every archive of the last 24 hours,
 * then the newest of each of the last N days and of each of the last M weeks (Hyderabad days, weeks from
 * Monday); the newest archive is never removed. Pure, so the thinning and the privacy notice's figure are one
 * rule. Archives are named backup-YYYYMMDD-HHMMSSZ[-n].tar.gz (UTC); their time is read from the name, not from
 * the file, which a copy may touch.
 */
export type BackupKeep = { days: number; weeks: number };

const KEEP = /^\s*(?:(\d{1,4})\s*d)?\s*[, ]?\s*(?:(\d{1,4})\s*w)?\s*$/i;

/** "7d,4w", "14d", "4w", "7d 4w"; null when it is none of these, or keeps nothing. */
export function parseBackupKeep(text: string): BackupKeep | null {
  const m = KEEP.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  const keep = { days: Number(m[1] ?? 0), weeks: Number(m[2] ?? 0) };
  return keep.days + keep.weeks > 0 ? keep : null;
}

/**
 * The longest an archive is kept, in days: what is erased from the database is gone from new archives at once
 * and from the last old one at most this many days later.
 */
export function backupKeepWindowDays(keep: BackupKeep): number {
  return Math.max(1, keep.days, keep.weeks * 7);
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HYDERABAD_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const dayIndex = (t: number) => Math.floor((t + HYDERABAD_OFFSET_MS) / DAY_MS);
// 1 January 1970 was a Thursday: +3 makes weeks start on Monday.
const weekIndex = (t: number) => Math.floor((dayIndex(t) + 3) / 7);

export const ARCHIVE_NAME = /^backup-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z(?:-(\d+))?\.tar\.gz$/;

/** backup-20260512-063000Z.tar.gz for 06:30:00 UTC on 12 May 2026; `n` > 1 tells apart two made in one second. */
export function archiveName(at: Date, n = 1): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "")
    .replace("T", "-");
  return `backup-${stamp}${n > 1 ? `-${n}` : ""}.tar.gz`;
}

/** The UTC time in an archive's name, or null for a file that is not one of ours. */
export function archiveTime(name: string): number | null {
  const m = ARCHIVE_NAME.exec(name);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(t) ? null : t + Number(m[7] ?? 1) - 1;
}

/** The names of the archives to keep, of those given (names that are not archives are ignored). */
export function archivesToKeep(names: string[], keep: BackupKeep, now: number): Set<string> {
  const archives = names
    .map((name) => ({ name, at: archiveTime(name) }))
    .filter((a): a is { name: string; at: number } => a.at !== null)
    .sort((a, b) => b.at - a.at);
  const kept = new Set<string>();
  if (archives.length) kept.add(archives[0].name);
  const today = dayIndex(now);
  const thisWeek = weekIndex(now);
  const days = new Set<number>();
  const weeks = new Set<number>();
  // Newest first: the first archive seen in a day or week is that day's or week's newest.
  for (const a of archives) {
    if (now - a.at < DAY_MS) kept.add(a.name);
    const d = dayIndex(a.at);
    if (d > today - keep.days && !days.has(d)) {
      days.add(d);
      kept.add(a.name);
    }
    const w = weekIndex(a.at);
    if (w > thisWeek - keep.weeks && !weeks.has(w)) {
      weeks.add(w);
      kept.add(a.name);
    }
  }
  return kept;
}
