import type { Selectable } from "kysely";
import { db, dialect } from "~db/client.server";
import type { WaitlistEntriesTable, WaitlistOffersTable } from "~db/schema";
import { newTimeOrderedId, nowIso } from "~/util/ids";
import { SHOWN_TO_STAFF, type WaitlistEntryStatus, type WaitlistOfferStatus } from "~/schemas/values";

/** An enquiry on a full batch's waitlist. */
export type WaitlistEntry = { id: string; scheduleId: string; enquiryId: string; status: WaitlistEntryStatus; joinedAt: string; updatedAt: string };

/** A freed seat offered to a waiting enquirer; while open it holds one seat of the batch. */
export type WaitlistOffer = {
  id: string;
  entryId: string;
  scheduleId: string;
  enquiryId: string;
  status: WaitlistOfferStatus;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
};

/** A batch's waitlist line as staff see it: the entry, who it is and, when offered, until when. */
export type WaitlistLine = WaitlistEntry & { fullName: string; email: string; enquiryStatus: string; offerExpiresAt: string | null };

const toEntry = (row: Selectable<WaitlistEntriesTable>): WaitlistEntry => ({ ...row, status: row.status as WaitlistEntryStatus });
const toOffer = ({ tokenHash: _h, ...row }: Selectable<WaitlistOffersTable>): WaitlistOffer => ({ ...row, status: row.status as WaitlistOfferStatus });

/**
 * On MariaDB, a locking read (FOR UPDATE): it reads the newest committed rows, not the transaction's snapshot,
 * and holds them until the commit, so two transactions deciding who is next cannot both pick the same row.
 * SQLite runs one write transaction at a time, so a plain read is already current there.
 */
const current = <Q extends { forUpdate(): Q }>(q: Q): Q => (dialect() === "mysql" ? q.forUpdate() : q);

/** Entries still on the list: waiting for a seat, or holding an open offer. */
const ON_LIST: WaitlistEntryStatus[] = ["waiting", "offered"];

export async function insertWaitlistEntry(scheduleId: string, enquiryId: string, joinedAt = nowIso()): Promise<WaitlistEntry> {
  // Time-ordered id: two joins in the same millisecond keep their order.
  const row = { id: newTimeOrderedId(Date.parse(joinedAt)), scheduleId, enquiryId, status: "waiting", joinedAt, updatedAt: joinedAt };
  await db().insertInto("waitlist_entries").values(row).execute();
  return toEntry(row);
}

/** The enquiry's entry still on a list (waiting or offered), if any. */
export async function activeEntryOfEnquiry(enquiryId: string): Promise<WaitlistEntry | null> {
  const row = await current(db().selectFrom("waitlist_entries"))
    .selectAll()
    .where("enquiryId", "=", enquiryId)
    .where("status", "in", ON_LIST)
    .orderBy("joinedAt")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}

/** The enquiry's newest entry for a batch, whatever became of it (declined, expired, enrolled …), if any. */
export async function latestEntryOfEnquiry(enquiryId: string, scheduleId: string): Promise<WaitlistEntry | null> {
  const row = await db()
    .selectFrom("waitlist_entries")
    .selectAll()
    .where("enquiryId", "=", enquiryId)
    .where("scheduleId", "=", scheduleId)
    .orderBy("joinedAt", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}

/** The batch's list in order of joining: waiting and offered entries. */
export async function listWaitlist(scheduleId: string, limit = 500): Promise<WaitlistLine[]> {
  const rows = await db()
    .selectFrom("waitlist_entries as w")
    .innerJoin("enquiries as e", "e.id", "w.enquiryId")
    .leftJoin("waitlist_offers as o", (j) => j.onRef("o.entryId", "=", "w.id").on("o.status", "=", "open"))
    .selectAll("w")
    .select(["e.fullName", "e.email", "e.status as enquiryStatus", "o.expiresAt as offerExpiresAt"])
    .where("w.scheduleId", "=", scheduleId)
    .where("w.status", "in", ON_LIST)
    // A minor's held enquiry keeps its place but is not shown to staff until a guardian consents.
    .where("e.privacyState", "=", SHOWN_TO_STAFF)
    .orderBy("w.joinedAt")
    .orderBy("w.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, status: r.status as WaitlistEntryStatus, offerExpiresAt: r.offerExpiresAt ?? null }));
}

/** 1-based place of an entry on its batch's list (waiting and offered entries ahead of it, plus one). */
export async function positionOf(entry: Pick<WaitlistEntry, "id" | "scheduleId" | "joinedAt">): Promise<number> {
  const r = await db()
    .selectFrom("waitlist_entries")
    .where("scheduleId", "=", entry.scheduleId)
    .where("status", "in", ON_LIST)
    .where((eb) => eb.or([eb("joinedAt", "<", entry.joinedAt), eb.and([eb("joinedAt", "=", entry.joinedAt), eb("id", "<", entry.id)])]))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n) + 1;
}

/** How many are waiting (not yet offered) per batch. */
export async function countWaiting(scheduleIds: string[]): Promise<Map<string, number>> {
  if (!scheduleIds.length) return new Map();
  const rows = await db()
    .selectFrom("waitlist_entries")
    .where("scheduleId", "in", scheduleIds)
    .where("status", "=", "waiting")
    .groupBy("scheduleId")
    .select(["scheduleId", (eb) => eb.fn.countAll<number>().as("n")])
    .execute();
  return new Map(rows.map((r) => [r.scheduleId, Number(r.n)]));
}

/** The first entry still waiting on a batch's list. */
export async function firstWaiting(scheduleId: string): Promise<WaitlistEntry | null> {
  const row = await current(db().selectFrom("waitlist_entries"))
    .selectAll()
    .where("scheduleId", "=", scheduleId)
    .where("status", "=", "waiting")
    .orderBy("joinedAt")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}

/**
 * Moves an entry from one status to another only if it is still in `from` (one conditional UPDATE): true when
 * this call moved it. Two instances racing for the same entry: exactly one gets true.
 */
export async function moveEntry(id: string, from: WaitlistEntryStatus[], to: WaitlistEntryStatus): Promise<boolean> {
  const r = await db()
    .updateTable("waitlist_entries")
    .set({ status: to, updatedAt: nowIso() })
    .where("id", "=", id)
    .where("status", "in", from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertOffer(entry: WaitlistEntry, o: { id: string; tokenHash: string; expiresAt: string; createdAt?: string }): Promise<WaitlistOffer> {
  const { id, tokenHash, expiresAt, createdAt = nowIso() } = o;
  const row = {
    id,
    entryId: entry.id,
    scheduleId: entry.scheduleId,
    enquiryId: entry.enquiryId,
    tokenHash,
    status: "open",
    createdAt,
    expiresAt,
    closedAt: null,
  };
  await db().insertInto("waitlist_offers").values(row).execute();
  return toOffer(row);
}

export async function getOffer(id: string): Promise<WaitlistOffer | null> {
  const row = await db().selectFrom("waitlist_offers").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toOffer(row) : null;
}

export async function findOfferByTokenHash(tokenHash: string): Promise<WaitlistOffer | null> {
  const row = await db().selectFrom("waitlist_offers").selectAll().where("tokenHash", "=", tokenHash).executeTakeFirst();
  return row ? toOffer(row) : null;
}

/** The enquiry's open offer, if any (at most one: an enquiry is on one list at a time). */
export async function openOfferOfEnquiry(enquiryId: string): Promise<WaitlistOffer | null> {
  const row = await current(db().selectFrom("waitlist_offers").selectAll().where("enquiryId", "=", enquiryId).where("status", "=", "open"))
    .limit(1)
    .executeTakeFirst();
  return row ? toOffer(row) : null;
}

/** An enquiry's status and batch as committed now (not the transaction's snapshot), for a change racing another. */
export async function enquiryStateNow(enquiryId: string): Promise<{ status: string; scheduleId: string | null } | null> {
  const row = await current(db().selectFrom("enquiries").select(["status", "scheduleId"]).where("id", "=", enquiryId)).executeTakeFirst();
  return row ?? null;
}

/** A batch's seats left, read current and (MariaDB) locked until the commit: a join and a freed seat take turns. */
export async function seatsLeftLocked(scheduleId: string): Promise<number | null> {
  const row = await current(db().selectFrom("schedules").select("seats").where("id", "=", scheduleId)).executeTakeFirst();
  return row ? Number(row.seats) : null;
}

/** Batches with a seat left while someone still waits (a safety net for the periodic job). */
export async function schedulesWithSeatsAndWaiting(limit = 100): Promise<string[]> {
  const rows = await db()
    .selectFrom("schedules as s")
    .select("s.id")
    .where("s.seats", ">", 0)
    .where((eb) => eb.exists(eb.selectFrom("waitlist_entries as w").select("w.id").whereRef("w.scheduleId", "=", "s.id").where("w.status", "=", "waiting")))
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Closes an offer only while it is open (and, with `notExpiredAt`, not past its time): one conditional UPDATE of
 * the offer's row, so of two acceptances (or an acceptance and the expiry job) in any instances exactly one wins.
 * On MariaDB the UPDATE also locks the row until the transaction ends.
 */
export async function closeOffer(
  id: string,
  to: Exclude<WaitlistOfferStatus, "open">,
  opts: { notExpiredAt?: string; expiredAt?: string } = {},
): Promise<boolean> {
  let q = db().updateTable("waitlist_offers").set({ status: to, closedAt: nowIso() }).where("id", "=", id).where("status", "=", "open");
  if (opts.notExpiredAt) q = q.where("expiresAt", ">", opts.notExpiredAt);
  if (opts.expiredAt) q = q.where("expiresAt", "<=", opts.expiredAt);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Open offers past their time (for the expiry job), oldest first. */
export async function listOffersExpiredBy(nowIsoValue: string, limit = 100): Promise<WaitlistOffer[]> {
  const rows = await db()
    .selectFrom("waitlist_offers")
    .selectAll()
    .where("status", "=", "open")
    .where("expiresAt", "<=", nowIsoValue)
    .orderBy("expiresAt")
    .limit(limit)
    .execute();
  return rows.map(toOffer);
}

/**
 * Open offers (offered, not yet accepted, expired, declined or withdrawn) whose time ends in [fromIso, toIso):
 * for the daily digest's "waitlist offers that expire today". Soonest first.
 */
export async function listOpenOffersExpiringBetween(
  fromIso: string,
  toIso: string,
): Promise<Array<{ offerId: string; enquiryId: string; fullName: string; scheduleId: string; expiresAt: string; assigneeId: string | null }>> {
  const rows = await db()
    .selectFrom("waitlist_offers as o")
    .innerJoin("enquiries as e", "e.id", "o.enquiryId")
    .select(["o.id as offerId", "o.enquiryId", "e.fullName", "o.scheduleId", "o.expiresAt", "e.assigneeId"])
    .where("o.status", "=", "open")
    .where("e.privacyState", "=", SHOWN_TO_STAFF)
    .where("o.expiresAt", ">=", fromIso)
    .where("o.expiresAt", "<", toIso)
    .orderBy("o.expiresAt")
    .orderBy("o.id")
    .limit(1000)
    .execute();
  return rows.map((r) => ({ ...r, assigneeId: r.assigneeId ?? null }));
}

/** An enquiry deleted: its waitlist rows go with it (the caller has already closed an open offer). */
export async function deleteWaitlistOfEnquiry(enquiryId: string): Promise<void> {
  await db().deleteFrom("waitlist_offers").where("enquiryId", "=", enquiryId).execute();
  await db().deleteFrom("waitlist_entries").where("enquiryId", "=", enquiryId).execute();
}

/** A batch deleted: its waitlist goes with it. */
export async function deleteWaitlistOfSchedules(scheduleIds: string[]): Promise<void> {
  if (!scheduleIds.length) return;
  await db().deleteFrom("waitlist_offers").where("scheduleId", "in", scheduleIds).execute();
  await db().deleteFrom("waitlist_entries").where("scheduleId", "in", scheduleIds).execute();
}
