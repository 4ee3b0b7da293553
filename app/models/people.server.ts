import { sql, type SqlBool } from "kysely";
import { db, dialect, retriedOnDeadlock } from "~db/client.server";
import { nowIso } from "~/util/ids";
import { SHOWN_TO_STAFF, type PrivacyState, type TimelineSubject } from "~/schemas/values";
import { toContactQuery, type ContactQuery } from "./contact-query.server";
import { enquiriesWritten, toEnquiry, type Enquiry } from "./enquiry.server";

/**
 * The SQL behind a person's privacy rights (app/services/privacy-*.server.ts): a person's records by e-mail in any
 * state, the conditional UPDATE that erases a record once, the scrubbing of their identifiers from timelines, the
 * audit log, the outbox and the rate-limit counts, the retention job's candidates and the breach list.
 */

export type PrivacyRecord =
  | { type: "enquiry"; record: Enquiry; state: PrivacyState; erasedAt: string | null }
  | { type: "contact_query"; record: ContactQuery; state: PrivacyState; erasedAt: string | null };

export const TABLE_OF = { enquiry: "enquiries", contact_query: "contact_queries" } as const;

/**
 * Every record (enquiry, contact query) not yet erased whose sender's e-mail is `email`, and, with `asGuardian`,
 * those naming it as the parent's or guardian's. Oldest first.
 */
export async function recordsOfEmail(email: string, { asGuardian = false } = {}): Promise<PrivacyRecord[]> {
  const address = email.trim().toLowerCase();
  if (!address) return [];
  const [enquiries, queries] = await Promise.all([
    db()
      .selectFrom("enquiries")
      .selectAll()
      .where("privacyState", "<>", "erased")
      .where((eb) => eb.or([eb("email", "=", address), ...(asGuardian ? [eb("guardianEmail", "=", address)] : [])]))
      .orderBy("createdAt")
      .execute(),
    db()
      .selectFrom("contact_queries")
      .selectAll()
      .where("privacyState", "<>", "erased")
      .where((eb) => eb.or([eb("email", "=", address), ...(asGuardian ? [eb("guardianEmail", "=", address)] : [])]))
      .orderBy("createdAt")
      .execute(),
  ]);
  return [
    ...enquiries.map((row) => ({ type: "enquiry" as const, record: toEnquiry(row), state: row.privacyState as PrivacyState, erasedAt: row.erasedAt })),
    ...queries.map((row) => ({ type: "contact_query" as const, record: toContactQuery(row), state: row.privacyState as PrivacyState, erasedAt: row.erasedAt })),
  ];
}

/** One record in any state but erased (a held one included), or null. */
export async function privacyRecord(type: TimelineSubject, id: string): Promise<PrivacyRecord | null> {
  if (type === "enquiry") {
    const row = await db().selectFrom("enquiries").selectAll().where("id", "=", id).where("privacyState", "<>", "erased").executeTakeFirst();
    return row ? { type, record: toEnquiry(row), state: row.privacyState as PrivacyState, erasedAt: row.erasedAt } : null;
  }
  const row = await db().selectFrom("contact_queries").selectAll().where("id", "=", id).where("privacyState", "<>", "erased").executeTakeFirst();
  return row ? { type, record: toContactQuery(row), state: row.privacyState as PrivacyState, erasedAt: row.erasedAt } : null;
}

/** Of these records ("enquiry" / "contact_query" and an id), the ones held for a guardian's consent, as "type:id". */
export async function heldRecordKeys(records: { type: string; id: string }[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (const type of ["enquiry", "contact_query"] as const) {
    const ids = [...new Set(records.filter((r) => r.type === type).map((r) => r.id))];
    if (!ids.length) continue;
    const rows = await db().selectFrom(TABLE_OF[type]).select("id").where("id", "in", ids).where("privacyState", "=", "held").execute();
    for (const r of rows) held.add(`${type}:${r.id}`);
  }
  return held;
}

/** The marketing choice as it now stands. */
export async function setMarketingConsent(type: TimelineSubject, id: string, on: boolean): Promise<void> {
  if (type === "enquiry") enquiriesWritten();
  await db()
    .updateTable(TABLE_OF[type])
    .set({ marketingConsent: on ? 1 : 0, updatedAt: nowIso() })
    .where("id", "=", id)
    .where("privacyState", "<>", "erased")
    .execute();
}

/**
 * WhatsApp updates on an enquiry, as the person now wants them. One more on its version: a staff screen opened before
 * is refused (with the newer value) instead of putting the old choice back.
 */
export async function setWhatsappNotifications(id: string, on: boolean): Promise<void> {
  await db()
    .updateTable("enquiries")
    .set((eb) => ({ whatsappNotifications: on ? 1 : 0, updatedAt: nowIso(), updatedBy: null, version: eb("version", "+", 1) }))
    .where("id", "=", id)
    .where("privacyState", "<>", "erased")
    .execute();
}

/** A person's own correction of their name and/or phone (already checked); `digits` is the phone's search form. */
export async function correctPersonDetails(type: TimelineSubject, id: string, change: { name?: string; phone?: string; digits?: string }): Promise<void> {
  if (type === "enquiry") enquiriesWritten();
  const updatedAt = nowIso();
  const phone = change.phone !== undefined ? { phone: change.phone, phoneDigits: change.digits ?? "" } : {};
  if (type === "enquiry") {
    await db()
      .updateTable("enquiries")
      .set({ updatedAt, ...(change.name !== undefined ? { fullName: change.name } : {}), ...phone })
      .where("id", "=", id)
      .where("privacyState", "<>", "erased")
      .execute();
    return;
  }
  await db()
    .updateTable("contact_queries")
    .set({ updatedAt, ...(change.name !== undefined ? { name: change.name } : {}), ...phone })
    .where("id", "=", id)
    .where("privacyState", "<>", "erased")
    .execute();
}

/**
 * A minor's held record becomes an ordinary one when the guardian consents: one conditional UPDATE, so of two
 * clicks (or two instances) exactly one goes on to send what was held back.
 */
export async function releaseHeldRecord(type: TimelineSubject, id: string, at: string): Promise<boolean> {
  if (type === "enquiry") enquiriesWritten();
  // A deadlock on the running totals' rows is run again (db/client.server.ts, retriedOnDeadlock).
  const r = await retriedOnDeadlock(() =>
    db()
      .updateTable(TABLE_OF[type])
      .set({ privacyState: "", guardianConsentAt: at, updatedAt: at })
      .where("id", "=", id)
      .where("privacyState", "=", "held")
      .executeTakeFirst(),
  );
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Erases one record's personal data in place, once: a conditional UPDATE on a record not yet erased, so of two
 * requests or two instances' retention jobs exactly one gets true and goes on to scrub the rest. What the
 * dashboard counts stays: status, course, mode, batch, dates, the campaign tags and the source label.
 */
export async function eraseRecordRow(type: TimelineSubject, id: string, at: string): Promise<boolean> {
  if (type === "enquiry") enquiriesWritten();
  const common = {
    privacyState: "erased",
    erasedAt: at,
    email: "",
    phoneDigits: "",
    message: "",
    guardianName: null,
    guardianEmail: null,
    marketingConsent: 0,
  };
  // A deadlock on the running totals' rows is run again (db/client.server.ts, retriedOnDeadlock).
  const r =
    type === "enquiry"
      ? await retriedOnDeadlock(() =>
          db()
            .updateTable("enquiries")
            .set({ ...common, fullName: "", phone: "", filePaths: "[]", whatsappNotifications: 0, referrer: null, followUpAt: null })
            .where("id", "=", id)
            .where("privacyState", "<>", "erased")
            .executeTakeFirst(),
        )
      : await db()
          .updateTable("contact_queries")
          .set({ ...common, name: "", phone: null, subject: null })
          .where("id", "=", id)
          .where("privacyState", "<>", "erased")
          .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------- what an erasure rewrites, found by exact keys

export type TextRow = { id: string; text: string };

/**
 * Audit entries about these records, and about their outbox messages (a resend names the recipient). Entries about
 * anything else (a sign-in with some address, another lead) are never an erasure's to rewrite.
 */
export async function auditEntriesAbout(entityType: TimelineSubject, ids: string[], outboxIds: string[]): Promise<TextRow[]> {
  if (!ids.length && !outboxIds.length) return [];
  const rows = await db()
    .selectFrom("audit_log")
    .select(["id", "summary"])
    .where((eb) =>
      eb.or([
        ...(ids.length ? [eb.and([eb("entityType", "=", entityType), eb("entityId", "in", ids)])] : []),
        ...(outboxIds.length ? [eb.and([eb("entityType", "=", "outbox"), eb("entityId", "in", outboxIds)])] : []),
      ]),
    )
    .execute();
  return rows.map((r) => ({ id: r.id, text: r.summary }));
}

export async function updateAuditSummary(id: string, summary: string): Promise<void> {
  await db()
    .updateTable("audit_log")
    .set({ summary: summary.slice(0, 1000) })
    .where("id", "=", id)
    .execute();
}

export type OutboxPersonRow = { id: string; status: string; recipient: string; subject: string; entityType: string | null; entityId: string | null };

/** The outbox's messages about these records (acknowledgements, alerts, offers, webhooks), any status. */
export async function outboxRowsAbout(entityType: TimelineSubject, ids: string[]): Promise<OutboxPersonRow[]> {
  if (!ids.length) return [];
  return db()
    .selectFrom("outbox")
    .select(["id", "status", "recipient", "subject", "entityType", "entityId"])
    .where("entityType", "=", entityType)
    .where("entityId", "in", ids)
    .execute();
}

/** E-mails sent (or to be sent) to exactly one of these addresses, whatever they are about. */
export async function outboxRowsTo(addresses: string[]): Promise<OutboxPersonRow[]> {
  const exact = [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter(Boolean))];
  if (!exact.length) return [];
  return db()
    .selectFrom("outbox")
    .select(["id", "status", "recipient", "subject", "entityType", "entityId"])
    .where("kind", "=", "email")
    .where(sql<string>`lower(${sql.ref("recipient")})`, "in", exact)
    .execute();
}

export async function deleteOutboxRows(ids: string[]): Promise<void> {
  if (ids.length) await db().deleteFrom("outbox").where("id", "in", ids).execute();
}

/** A sent message kept for the Outbox screen's history without what named the person: body and error gone. */
export async function emptySentOutboxRow(id: string, shown: { subject: string; recipient: string }): Promise<void> {
  await db()
    .updateTable("outbox")
    .set({ payload: "", lastError: null, subject: shown.subject.slice(0, 400), recipient: shown.recipient, updatedAt: nowIso() })
    .where("id", "=", id)
    .execute();
}

/**
 * Rate-limit counts by exact key, and those whose key begins with one of `prefixes` (a key part up to its separator,
 * such as "login-acct-ip:email:ravi@x.in|" before the IP address): never a key that merely contains an address.
 */
export async function deleteRateLimitKeys(exact: string[], prefixes: string[]): Promise<void> {
  if (exact.length) await db().deleteFrom("rate_limits").where("key", "in", exact).execute();
  for (const prefix of prefixes) {
    const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    const found = await db()
      .selectFrom("rate_limits")
      .select("key")
      .where(sql<SqlBool>`${sql.ref("key")} like ${`${escaped}%`} escape ${"\\"}`)
      .execute();
    // The database's collation may fold case: only keys that really begin with the prefix go.
    const keys = found.map((r) => r.key).filter((k) => k.startsWith(prefix));
    if (keys.length) await db().deleteFrom("rate_limits").where("key", "in", keys).execute();
  }
}

/** Whether a record of someone else (another e-mail, not erased) has this phone number: then it is not only this person's. */
export async function phoneSharedWithOthers(digits: string, emails: string[]): Promise<boolean> {
  const own = emails.map((e) => e.trim().toLowerCase());
  for (const table of ["enquiries", "contact_queries"] as const) {
    let query = db().selectFrom(table).select("id").where("phoneDigits", "=", digits).where("privacyState", "<>", "erased");
    if (own.length) query = query.where("email", "not in", own);
    const row = await query.limit(1).executeTakeFirst();
    if (row) return true;
  }
  return false;
}

/**
 * SQLite keeps old page versions in its write-ahead log until a checkpoint: after an erasure the log is copied
 * into the file and truncated, so the erased bytes (zeroed in the file by secure_delete) are gone from both.
 * MySQL/MariaDB: nothing to do here (its undo and binary logs are the server's; docs/privacy.md).
 */
export async function flushErasedPages(): Promise<void> {
  if (dialect() !== "sqlite") return;
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db());
}

// ---------------------------------------------------------------- the person's own copy (/me's export)

/** The e-mails and webhooks about these records (without payloads), oldest first. */
export async function outboxAbout(type: TimelineSubject, ids: string[]) {
  if (!ids.length) return [];
  return db()
    .selectFrom("outbox")
    .select(["id", "kind", "event", "recipient", "subject", "status", "createdAt", "sentAt"])
    .where("entityType", "=", type)
    .where("entityId", "in", ids)
    .orderBy("id")
    .execute();
}

/** These enquiries' waitlist places and offers (without the offers' token hashes). */
export async function waitlistRowsOf(enquiryIds: string[]) {
  if (!enquiryIds.length) return { entries: [], offers: [] };
  const [entries, offers] = await Promise.all([
    db().selectFrom("waitlist_entries").selectAll().where("enquiryId", "in", enquiryIds).orderBy("joinedAt").execute(),
    db()
      .selectFrom("waitlist_offers")
      .select(["id", "entryId", "scheduleId", "enquiryId", "status", "createdAt", "expiresAt", "closedAt"])
      .where("enquiryId", "in", enquiryIds)
      .orderBy("createdAt")
      .execute(),
  ]);
  return { entries, offers };
}

// ---------------------------------------------------------------- retention

export type IdleQuery = { cutoff: string; limit: number };

/**
 * Records of one state whose last activity (their last change, or the newest line on their timeline) is before
 * `cutoff`. Enquiries: `enrolled` picks Enrolled ones (kept longer) or all others.
 */
export async function idleEnquiries({ cutoff, limit }: IdleQuery, enrolled: boolean): Promise<string[]> {
  const rows = await db()
    .selectFrom("enquiries as e")
    .select("e.id")
    .where("e.privacyState", "=", SHOWN_TO_STAFF)
    .where("e.updatedAt", "<", cutoff)
    .where("e.status", enrolled ? "=" : "<>", "enrolled")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("timeline_entries as t")
            .select("t.id")
            .where("t.subjectType", "=", "enquiry")
            .whereRef("t.subjectId", "=", "e.id")
            .where("t.at", ">=", cutoff),
        ),
      ),
    )
    .orderBy("e.updatedAt")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function idleContactQueries({ cutoff, limit }: IdleQuery): Promise<string[]> {
  const rows = await db()
    .selectFrom("contact_queries as c")
    .select("c.id")
    .where("c.privacyState", "=", SHOWN_TO_STAFF)
    .where("c.updatedAt", "<", cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("timeline_entries as t")
            .select("t.id")
            .where("t.subjectType", "=", "contact_query")
            .whereRef("t.subjectId", "=", "c.id")
            .where("t.at", ">=", cutoff),
        ),
      ),
    )
    .orderBy("c.updatedAt")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Minors' records still waiting for a guardian's consent since before `cutoff`. */
export async function heldSince(type: TimelineSubject, { cutoff, limit }: IdleQuery): Promise<string[]> {
  const rows = await db()
    .selectFrom(TABLE_OF[type])
    .select("id")
    .where("privacyState", "=", "held")
    .where("createdAt", "<", cutoff)
    .orderBy("createdAt")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The summaries of erasures recorded since `since` (oldest first): they name the erased records' ids. */
export async function erasureSummariesSince(since: string): Promise<string[]> {
  const rows = await db().selectFrom("audit_log").select("summary").where("action", "=", "erase").where("at", ">=", since).orderBy("at").execute();
  return rows.map((r) => r.summary);
}

// ---------------------------------------------------------------- breach list

export type TouchedPerson = { email: string; name: string; phone: string; table: string; recordId: string; at: string };

/**
 * Every person whose data a time window touched, table by table: records created or changed in [from, before)
 * (enquiries, contact queries, and a guardian's address on them), records with a timeline line, a consent or an
 * outbox message in the window. Erased records name nobody and are left out.
 */
export async function peopleTouched(from: string, before: string, tables: readonly string[]): Promise<TouchedPerson[]> {
  const out: TouchedPerson[] = [];
  const inWindow = (column: string) => sql<SqlBool>`${sql.ref(column)} >= ${from} and ${sql.ref(column)} < ${before}`;
  const enquiryIds = new Map<string, { table: string; at: string }>();
  const queryIds = new Map<string, { table: string; at: string }>();
  const note = (map: Map<string, { table: string; at: string }>, id: string, table: string, at: string) => {
    if (!map.has(id)) map.set(id, { table, at });
  };
  if (tables.includes("enquiries")) {
    for (const r of await db()
      .selectFrom("enquiries")
      .select(["id", "updatedAt"])
      .where((eb) => eb.or([inWindow("createdAt"), inWindow("updatedAt")]))
      .execute())
      note(enquiryIds, r.id, "enquiries", r.updatedAt);
  }
  if (tables.includes("contact_queries")) {
    for (const r of await db()
      .selectFrom("contact_queries")
      .select(["id", "updatedAt"])
      .where((eb) => eb.or([inWindow("createdAt"), inWindow("updatedAt")]))
      .execute())
      note(queryIds, r.id, "contact_queries", r.updatedAt);
  }
  const bySubject = async (table: "timeline_entries" | "consents", column: "at") => {
    const rows = await db().selectFrom(table).select(["subjectType", "subjectId", column]).where(inWindow(column)).execute();
    for (const r of rows) note(r.subjectType === "enquiry" ? enquiryIds : queryIds, r.subjectId, table, r[column]);
  };
  if (tables.includes("timeline_entries")) await bySubject("timeline_entries", "at");
  if (tables.includes("consents")) await bySubject("consents", "at");
  if (tables.includes("outbox")) {
    const rows = await db()
      .selectFrom("outbox")
      .select(["entityType", "entityId", "createdAt"])
      .where(inWindow("createdAt"))
      .where("entityId", "is not", null)
      .execute();
    for (const r of rows) {
      if (r.entityType === "enquiry") note(enquiryIds, r.entityId!, "outbox", r.createdAt);
      if (r.entityType === "contact_query") note(queryIds, r.entityId!, "outbox", r.createdAt);
    }
  }
  for (const [ids, type] of [
    [enquiryIds, "enquiry"],
    [queryIds, "contact_query"],
  ] as const) {
    const list = [...ids.keys()];
    for (let i = 0; i < list.length; i += 500) {
      const chunk = list.slice(i, i + 500);
      const rows =
        type === "enquiry"
          ? await db()
              .selectFrom("enquiries")
              .select(["id", "email", "fullName as name", "phone", "guardianEmail", "guardianName"])
              .where("id", "in", chunk)
              .where("privacyState", "<>", "erased")
              .execute()
          : await db()
              .selectFrom("contact_queries")
              .select(["id", "email", "name", "phone", "guardianEmail", "guardianName"])
              .where("id", "in", chunk)
              .where("privacyState", "<>", "erased")
              .execute();
      for (const r of rows) {
        const why = ids.get(r.id)!;
        out.push({ email: r.email, name: r.name, phone: r.phone ?? "", table: why.table, recordId: r.id, at: why.at });
        if (r.guardianEmail) out.push({ email: r.guardianEmail, name: r.guardianName ?? "", phone: "", table: why.table, recordId: r.id, at: why.at });
      }
    }
  }
  return out;
}
