import { describe, expect, it } from "vitest";
import { archiveName, archivesToKeep, archiveTime, backupKeepWindowDays, parseBackupKeep } from "./backup-keep";

const H = 3_600_000;
const D = 24 * H;

describe("BACKUP_KEEP", () => {
  it("reads days and weeks, either alone", () => {
    expect(parseBackupKeep("7d,4w")).toEqual({ days: 7, weeks: 4 });
    expect(parseBackupKeep("14d")).toEqual({ days: 14, weeks: 0 });
    expect(parseBackupKeep("4w")).toEqual({ days: 0, weeks: 4 });
    expect(parseBackupKeep("7d 2w")).toEqual({ days: 7, weeks: 2 });
    for (const bad of ["", "7", "seven days", "0d", "0d,0w", "4w,7d"]) expect(parseBackupKeep(bad), bad).toBeNull();
  });

  it("gives the window in days an old archive may keep erased data", () => {
    expect(backupKeepWindowDays({ days: 7, weeks: 4 })).toBe(28);
    expect(backupKeepWindowDays({ days: 14, weeks: 0 })).toBe(14);
    expect(backupKeepWindowDays({ days: 30, weeks: 2 })).toBe(30);
  });

  it("names archives by their UTC second and reads the time back", () => {
    const at = new Date("2026-05-12T06:30:05.123Z");
    expect(archiveName(at)).toBe("backup-20260512-063005Z.tar.gz");
    expect(archiveName(at, 2)).toBe("backup-20260512-063005Z-2.tar.gz");
    expect(archiveTime("backup-20260512-063005Z.tar.gz")).toBe(Date.parse("2026-05-12T06:30:05Z"));
    expect(archiveTime("notes.txt")).toBeNull();
    expect(archiveTime("backup-20260512-063005Z.tar.gz.partial")).toBeNull();
  });

  it("keeps the last day whole, the newest of each of N days and M weeks, and nothing older", () => {
    const now = Date.parse("2026-05-20T12:00:00Z"); // a Wednesday
    // One archive every 6 hours for 60 days.
    const names = Array.from({ length: 240 }, (_, i) => archiveName(new Date(now - i * 6 * H)));
    const kept = archivesToKeep([...names, "README.txt"], { days: 7, weeks: 4 }, now);
    const ages = [...kept].map((n) => (now - archiveTime(n)!) / D).sort((a, b) => a - b);
    // The last 24 hours: all four.
    expect(ages.filter((a) => a < 1)).toHaveLength(4);
    // One a day for the last 7 days (Hyderabad days), one a week for 4 weeks: nothing older than 28 days.
    expect(Math.max(...ages)).toBeLessThanOrEqual(28);
    expect(kept.size).toBeLessThanOrEqual(4 + 7 + 4);
    // Each of the last 7 days has its archive (the day's last, 18:00 UTC, once the day is over).
    for (let d = 1; d < 7; d++)
      expect(
        ages.some((a) => a >= d - 0.75 && a < d + 0.25),
        `day ${d}`,
      ).toBe(true);
    // Archives between 8 and 28 days old: one per week (Sunday's last).
    expect(ages.filter((a) => a > 8).length).toBeGreaterThanOrEqual(2);
    expect(kept.has("README.txt")).toBe(false);
    // Stable: thinning again later keeps what it kept, less what aged out.
    const later = archivesToKeep([...kept], { days: 7, weeks: 4 }, now + 6 * H);
    expect([...later].every((n) => kept.has(n))).toBe(true);
  });

  it("never removes the newest archive, however old", () => {
    const now = Date.parse("2026-05-20T12:00:00Z");
    const old = archiveName(new Date(now - 90 * D));
    expect([...archivesToKeep([old, archiveName(new Date(now - 91 * D))], { days: 7, weeks: 0 }, now)]).toEqual([old]);
  });
});
