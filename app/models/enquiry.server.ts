import {
  CompiledQuery,
  sql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  type Updateable,
} from "kysely";
import { db, dialect } from "~db/client.server";
import { SEARCH_TABLE } from "~db/migrations/0050-indexed-search";
import type { Database, EnquiriesTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { phoneDigits, phoneSearchDigits } from "~/util/phone";
import { OPEN_ENQUIRY_STATUSES, SHOWN_TO_STAFF, type DeliveryMode, type EnquiryFormName, type EnquirySort, type EnquiryStatus } from "~/schemas/values";
import { contains, listToText, startsWith, newestFirstPages, olderThan, pageBounds, parseList, toPage, type Page, type PageInput } from "./paging.server";

/** Where a lead came from: the landing URL's UTM tags, the site that sent the visitor, and which form. */
export type EnquirySource = {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  referrer: string | null;
  /** "" for enquiries from before this was recorded. */
  form: EnquiryFormName | "";
};

export type Enquiry = {
  id: string;
  fullName: string;
  email: string;
  phone: string;
  preferredCourse: string;
  preferredMode: DeliveryMode;
  message: string;
  whatsappNotifications: boolean;
  filePaths: string[];
  status: EnquiryStatus;
  createdAt: string;
  updatedAt: string;
  /** The staff member following it up, and the next follow-up (UTC). */
  assigneeId: string | null;
  followUpAt: string | null;
  /** The batch (schedule) it is for; an enrolled enquiry holds one of its seats. */
  scheduleId: string | null;
  source: EnquirySource;
  /** One word for lists, filters and charts: the UTM source, else the referring site, else "direct". */
  sourceLabel: string;
  /** When its status first changed from New (the 24-hour promise), or null. */
  firstStatusChangeAt: string | null;
  /** One more on every change: a form or API call drawn from an older version is refused. */
  version: number;
  /** Who made the stored version (a staff name, "Waitlist", "System"), or null for the visitor's submission. */
  updatedBy: string | null;
  /** The last staff action on it, and when an untouched New one was escalated to the admins (null: not yet). */
  touchedAt: string | null;
  escalatedAt: string | null;
  /** Privacy (app/schemas/privacy.ts): "I am under 18", the guardian and when they consented; marketing as it stands; the notice version shown. */
  under18: boolean;
  guardianName: string | null;
  guardianEmail: string | null;
  guardianConsentAt: string | null;
  marketingConsent: boolean;
  noticeVersion: string;
};

export type EnquiryInput = {
  fullName: string;
  email: string;
  phone: string;
  preferredCourse: string;
  preferredMode: DeliveryMode;
  message?: string;
  whatsappNotifications?: boolean;
  filePaths?: string[];
  scheduleId?: string | null;
  /** The owner given on arrival (the round-robin), or none. */
  assigneeId?: string | null;
  source?: Partial<EnquirySource>;
  sourceLabel?: string;
  under18?: boolean;
  guardianName?: string | null;
  guardianEmail?: string | null;
  marketingConsent?: boolean;
  noticeVersion?: string;
  /** "held": a minor's enquiry, kept from staff until a guardian consents (app/services/guardian-consent.server.ts). */
  privacyState?: "" | "held";
};

export function toEnquiry(row: Selectable<EnquiriesTable>): Enquiry {
  const { phoneDigits: _searchOnly, utmSource, utmMedium, utmCampaign, referrer, sourceForm, privacyState: _state, erasedAt: _erased, ...all } = row;
  // MariaDB's search columns (migration 0050: emailReversed, phoneNational, phoneReversed) come with selectAll():
  // generated for the index, never part of the record.
  const {
    emailReversed: _e,
    phoneNational: _p,
    phoneReversed: _r,
    ...rest
  } = all as typeof all & Record<"emailReversed" | "phoneNational" | "phoneReversed", unknown>;
  return {
    ...rest,
    version: Number(row.version),
    preferredMode: row.preferredMode as DeliveryMode,
    status: row.status as EnquiryStatus,
    whatsappNotifications: Boolean(row.whatsappNotifications),
    under18: Boolean(row.under18),
    marketingConsent: Boolean(row.marketingConsent),
    filePaths: parseList(row.filePaths),
    source: { utmSource, utmMedium, utmCampaign, referrer, form: sourceForm as EnquiryFormName | "" },
  };
}

/** A list's filters with every relative value (mine, today, overdue) already turned into ids and instants. */
export type EnquiryFilter = PageInput & {
  status?: string;
  q?: string;
  course?: string;
  mode?: string;
  /** A user id, or null for unassigned. */
  assigneeId?: string | null;
  followUp?: { due: { from: string; before: string } } | { overdueBefore: string } | "none";
  source?: string;
  form?: string;
  createdFrom?: string;
  createdBefore?: string;
  ids?: string[];
  /** Newest first unless said otherwise; a follow-up filter lists the earliest follow-up first. */
  sort?: EnquirySort;
  /**
   * A counsellor's queue: their overdue follow-ups first (earliest first), then New enquiries that are theirs or
   * nobody's, oldest first. Other filters narrow it further.
   */
  queue?: { userId: string; now: string };
};

/**
 * The column, kept from SQLite's choice of index: SQLite has no statistics (no ANALYZE) and would otherwise read
 * every visible row through the privacy index, or an overdue list through the status index, and sort them all;
 * the list's own order index is the one to walk. MySQL/MariaDB choose from their statistics.
 */
function notIndexed(column: "privacyState" | "status") {
  return dialect() === "sqlite" ? sql<string>`+${sql.ref(column)}` : sql<string>`${sql.ref(column)}`;
}

/**
 * The rows a list's filters match. `forCount`: for counting, where the privacy index may serve (a count of every
 * visible row reads that index alone); a page reads its list's order index instead.
 */
function filtered(filter: EnquiryFilter, { forCount = false, walkOrder = false }: { forCount?: boolean; walkOrder?: boolean } = {}) {
  let q = db()
    .selectFrom("enquiries")
    .where((eb) => eb(forCount ? eb.ref("privacyState") : notIndexed("privacyState"), "=", SHOWN_TO_STAFF));
  if (filter.ids) q = q.where("id", "in", filter.ids.length ? filter.ids : [""]);
  if (filter.status) q = q.where("status", "=", filter.status);
  if (filter.course) q = q.where("preferredCourse", "=", filter.course);
  if (filter.mode) q = q.where("preferredMode", "=", filter.mode);
  if (filter.assigneeId === null) q = q.where("assigneeId", "is", null);
  else if (filter.assigneeId) q = q.where("assigneeId", "=", filter.assigneeId);
  const followUp = filter.followUp;
  if (followUp === "none") q = q.where("followUpAt", "is", null);
  else if (followUp && "due" in followUp) q = q.where("followUpAt", ">=", followUp.due.from).where("followUpAt", "<", followUp.due.before);
  // Status as a filter only (when no status is asked for): the follow-up index gives the list's order.
  else if (followUp)
    q = q
      .where("followUpAt", "<", followUp.overdueBefore)
      .where((eb) => eb(filter.status ? eb.ref("status") : notIndexed("status"), "in", OPEN_ENQUIRY_STATUSES));
  if (filter.source) q = q.where("sourceLabel", "=", filter.source);
  if (filter.form) q = q.where("sourceForm", "=", filter.form);
  if (filter.createdFrom) q = q.where("createdAt", ">=", filter.createdFrom);
  if (filter.createdBefore) q = q.where("createdAt", "<", filter.createdBefore);
  const term = filter.q?.trim();
  if (term) q = q.where(searchCondition(term, walkOrder));
  return q;
}

/** The trigram index's shortest term: shorter ones are looked for row by row (LIKE), as before issue 30. */
const INDEXED_TERM_LENGTH = 3;

/**
 * Staff search: part of a name, a whole or partial e-mail, a phone as typed or some of its digits; case and
 * accents ignored. Answered from an index (migration 0050): the matching rows are found there first and the
 * list's other filters and order apply to them.
 * - SQLite: the FTS5 trigram index finds any part of 3 characters or more of the name, e-mail or phone.
 * - MySQL/MariaDB: the name's words by their beginnings (FULLTEXT), the e-mail by its beginning or its end, the
 *   phone by the beginning or the end of its number (README, "Search").
 * Terms under 3 characters (and, on MySQL, terms with no word of 3) are looked for row by row with LIKE.
 */
function searchCondition(term: string, walkOrder = false): RawBuilder<SqlBool> | ((eb: ExpressionBuilder<Database, "enquiries">) => Expression<SqlBool>) {
  const digits = phoneSearchDigits(term);
  const scan = (eb: ExpressionBuilder<Database, "enquiries">) =>
    eb.or([contains("fullName", term), contains("email", term), contains("phone", term), ...(digits ? [contains("phoneDigits", digits)] : [])]);
  if ([...term].length < INDEXED_TERM_LENGTH) return scan;
  if (dialect() === "sqlite") {
    const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;
    const match = [phrase(term), ...(digits ? [`phoneDigits : ${phrase(digits)}`] : [])].join(" OR ");
    // walkOrder: "+rowid" keeps SQLite from reading the matches by rowid and sorting them all; it walks the list's
    // order index instead and keeps the rows in the match set (a common term's first pages).
    return walkOrder
      ? sql<SqlBool>`+rowid in (select rowid from ${sql.table(SEARCH_TABLE)} where ${sql.table(SEARCH_TABLE)} match ${match})`
      : sql<SqlBool>`rowid in (select rowid from ${sql.table(SEARCH_TABLE)} where ${sql.table(SEARCH_TABLE)} match ${match})`;
  }
  const words = term.split(/[^\p{L}\p{N}]+/u).filter((w) => [...w].length >= INDEXED_TERM_LENGTH);
  const oneWord = !/\s/.test(term);
  if (!words.length && !oneWord && !digits) return scan;
  const reversed = (text: string) => [...text].reverse().join("");
  const parts: RawBuilder<unknown>[] = [];
  const select = (where: RawBuilder<unknown>) => sql`select ${sql.ref("id")} from ${sql.table("enquiries")} where ${where}`;
  if (words.length) parts.push(select(sql`match(${sql.ref("fullName")}) against (${words.map((w) => `+${w}*`).join(" ")} in boolean mode)`));
  if (oneWord) {
    parts.push(select(startsWith("email", term)), select(startsWith("emailReversed", reversed(term))));
  }
  // The number's beginning after any country code, its beginning as stored (with one: "9181234…", read from the
  // (phoneDigits, createdAt) index of migration 0010), and its end.
  if (digits)
    parts.push(select(startsWith("phoneNational", digits)), select(startsWith("phoneDigits", digits)), select(startsWith("phoneReversed", reversed(digits))));
  return sql<SqlBool>`${sql.ref("id")} in (select ${sql.ref("m.id")} from (${sql.join(parts, sql` union `)}) as m)`;
}

/** The plan of a list's page query in its default order (EXPLAIN), one line per step, for scripts/bench-enquiries.ts. */
export async function explainEnquiryList(filter: EnquiryFilter): Promise<string[]> {
  const { limit, offset } = pageBounds(filter);
  const compiled = ordered(filtered(filter).selectAll(), filter).limit(limit).offset(offset).compile();
  if (dialect() === "sqlite") {
    const r = await db().executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    return r.rows.map((row) => row.detail);
  }
  const r = await db().executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
  return r.rows.map((row) => `${String(row.table)} type=${String(row.type)} key=${String(row.key)} rows=${String(row.rows)} ${String(row.Extra ?? "")}`.trim());
}

/** The queue's first part: the counsellor's follow-ups past due on leads still open. */
function overdueOf(userId: string, now: string) {
  return (eb: ExpressionBuilder<Database, "enquiries">) =>
    eb.and([eb("assigneeId", "=", userId), eb("followUpAt", "<", now), eb("status", "in", OPEN_ENQUIRY_STATUSES)]);
}

/**
 * The queue's second part: New enquiries that are nobody's, or the counsellor's and not in the first part. Written
 * without NOT over the first part's test: a null owner or follow-up makes that test unknown, and NOT unknown drops the row.
 */
function newFor(userId: string, now: string) {
  return (eb: ExpressionBuilder<Database, "enquiries">) =>
    eb.and([
      eb("status", "=", "new"),
      eb.or([eb("assigneeId", "is", null), eb.and([eb("assigneeId", "=", userId), eb.or([eb("followUpAt", "is", null), eb("followUpAt", ">=", now)])])]),
    ]);
}

async function countOf(q: ReturnType<typeof filtered>): Promise<number> {
  return Number((await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
}

/**
 * One page in the order asked for. A follow-up filter or sort lists the earliest follow-up first (the one to call
 * now); the queue is two index-ordered parts one after the other, paged across both (no sort of the whole set).
 */
export async function listEnquiries(filter: EnquiryFilter = {}): Promise<Page<Enquiry>> {
  const { page, limit, offset } = pageBounds(filter);
  if (filter.queue) return listQueue(filter, filter.queue, { page, limit, offset });
  if (dialect() !== "sqlite" || !filter.q?.trim()) {
    const [found, count] = await Promise.all([
      ordered(filtered(filter).selectAll(), filter).limit(limit).offset(offset).execute(),
      countOf(filtered(filter, { forCount: true })),
    ]);
    return toPage(found.map(toEnquiry), count, page, limit);
  }
  const count = await countOf(filtered(filter, { forCount: true }));
  // The plan for a search (SQLite): few matches are read from the index and sorted; when many match and the page
  // is near the start, walking the list's order until the page is full reads far fewer rows.
  const walkOrder = count > WALK_ORDER_MATCHES && offset + limit <= count / 4;
  const found = await ordered(filtered(filter, { walkOrder }).selectAll(), filter).limit(limit).offset(offset).execute();
  return toPage(found.map(toEnquiry), count, page, limit);
}

/** Above this many matches a search's early pages walk the list's order (see listEnquiries). */
const WALK_ORDER_MATCHES = 500;

/** One page of rows in the list's order, without the count (a figure that only shows the first few). */
export async function listEnquiryRows(filter: EnquiryFilter): Promise<Enquiry[]> {
  const { limit, offset } = pageBounds(filter);
  return (await ordered(filtered(filter).selectAll(), filter).limit(limit).offset(offset).execute()).map(toEnquiry);
}

/** The list's order: a follow-up filter or sort lists the earliest follow-up first; otherwise newest (or oldest) first. */
function ordered<Q extends SelectQueryBuilder<Database, "enquiries", Selectable<EnquiriesTable>>>(rows: Q, filter: EnquiryFilter): Q {
  const byFollowUp = filter.sort === "follow-up" || (filter.followUp !== undefined && filter.followUp !== "none");
  let q = rows as SelectQueryBuilder<Database, "enquiries", Selectable<EnquiriesTable>>;
  if (byFollowUp) {
    // No follow-up set: after every dated one.
    if (filter.sort === "follow-up" && filter.followUp === undefined) q = q.orderBy(sql`case when ${sql.ref("followUpAt")} is null then 1 else 0 end`);
    q = q.orderBy("followUpAt", "asc").orderBy("createdAt", "asc").orderBy("id", "asc");
  } else if (filter.sort === "oldest") q = q.orderBy("createdAt", "asc").orderBy("id", "asc");
  else q = q.orderBy("createdAt", "desc").orderBy("id", "desc");
  return q as Q;
}

async function listQueue(
  filter: EnquiryFilter,
  queue: { userId: string; now: string },
  { page, limit, offset }: { page: number; limit: number; offset: number },
) {
  const overdue = filtered(filter).where(overdueOf(queue.userId, queue.now));
  const fresh = filtered(filter).where(newFor(queue.userId, queue.now));
  const [overdueCount, freshCount] = await Promise.all([
    countOf(filtered(filter, { forCount: true }).where(overdueOf(queue.userId, queue.now))),
    countOf(filtered(filter, { forCount: true }).where(newFor(queue.userId, queue.now))),
  ]);
  const rows: Selectable<EnquiriesTable>[] = [];
  if (offset < overdueCount) {
    rows.push(
      ...(await overdue.selectAll().orderBy("followUpAt", "asc").orderBy("createdAt", "asc").orderBy("id", "asc").limit(limit).offset(offset).execute()),
    );
  }
  if (rows.length < limit) {
    const from = Math.max(0, offset - overdueCount);
    rows.push(
      ...(await fresh
        .selectAll()
        .orderBy("createdAt", "asc")
        .orderBy("id", "asc")
        .limit(limit - rows.length)
        .offset(from)
        .execute()),
    );
  }
  return toPage(rows.map(toEnquiry), overdueCount + freshCount, page, limit);
}

/** The first enquiry of the counsellor's queue other than `exceptId` (the details' Next in queue). */
export async function nextInQueue(queue: { userId: string; now: string }, exceptId: string): Promise<string | null> {
  const page = await listQueue({ queue }, queue, { page: 1, limit: 2, offset: 0 });
  return page.data.find((e) => e.id !== exceptId)?.id ?? null;
}

/**
 * The same filters, read a page at a time in the list's order by position (createdAt, id), for exports:
 * memory stays flat however many rows match, and rows added meanwhile do not shift the pages.
 */
export async function* eachEnquiry(filter: EnquiryFilter, pageSize = 1000): AsyncGenerator<Enquiry[]> {
  const pages = newestFirstPages((after) => {
    let q = filtered(filter).selectAll();
    if (after) q = q.where(olderThan(after));
    return q.orderBy("createdAt", "desc").orderBy("id", "desc").limit(pageSize).execute();
  }, pageSize);
  for await (const rows of pages) yield rows.map(toEnquiry);
}

/** How many enquiries a list's filters match (the sidebar's and dashboard's counts). */
export async function countMatching(filter: EnquiryFilter): Promise<number> {
  return countOf(filtered(filter, { forCount: true }));
}

export async function countEnquiries(status?: EnquiryStatus): Promise<number> {
  let q = db().selectFrom("enquiries").where("privacyState", "<>", "held");
  if (status) q = q.where("status", "=", status);
  const r = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function getEnquiry(id: string): Promise<Enquiry | null> {
  const row = await db().selectFrom("enquiries").selectAll().where("id", "=", id).where("privacyState", "=", SHOWN_TO_STAFF).executeTakeFirst();
  return row ? toEnquiry(row) : null;
}

/** Status is always "new" on create; a caller cannot choose it. */
export async function insertEnquiry(input: EnquiryInput, opts: { id?: string; createdAt?: string } = {}): Promise<Enquiry> {
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? nowIso();
  const source = input.source ?? {};
  await db()
    .insertInto("enquiries")
    .values({
      id,
      fullName: input.fullName,
      email: input.email,
      phone: input.phone,
      phoneDigits: phoneDigits(input.phone),
      preferredCourse: input.preferredCourse,
      preferredMode: input.preferredMode,
      message: input.message ?? "",
      whatsappNotifications: input.whatsappNotifications === false ? 0 : 1,
      filePaths: listToText(input.filePaths),
      status: "new",
      createdAt: now,
      updatedAt: now,
      scheduleId: input.scheduleId ?? null,
      assigneeId: input.assigneeId ?? null,
      utmSource: source.utmSource ?? null,
      utmMedium: source.utmMedium ?? null,
      utmCampaign: source.utmCampaign ?? null,
      referrer: source.referrer ?? null,
      sourceForm: source.form ?? "",
      sourceLabel: input.sourceLabel ?? "direct",
      privacyState: input.privacyState ?? SHOWN_TO_STAFF,
      under18: input.under18 ? 1 : 0,
      guardianName: input.guardianName ?? null,
      guardianEmail: input.guardianEmail ?? null,
      marketingConsent: input.marketingConsent ? 1 : 0,
      noticeVersion: input.noticeVersion ?? "",
    })
    .execute();
  const row = await db().selectFrom("enquiries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return toEnquiry(row);
}

export type EnquiryChanges = Partial<Omit<EnquiryInput, "source" | "sourceLabel" | "privacyState">> & {
  status?: EnquiryStatus;
  assigneeId?: string | null;
  followUpAt?: string | null;
  firstStatusChangeAt?: string;
  touchedAt?: string;
  escalatedAt?: string;
};

/**
 * Writes the changes and adds one to the version; with `version`, only if the stored version is still that one
 * (the one the caller read): of two writers that read the same version, exactly one gets through, on both
 * databases. Null when the row is gone or was changed meanwhile (the caller reads it again to tell which).
 */
export async function updateEnquiryRow(
  id: string,
  input: EnquiryChanges,
  { version, updatedBy = null }: { version?: number; updatedBy?: string | null } = {},
): Promise<Enquiry | null> {
  const values: Updateable<EnquiriesTable> = { updatedAt: nowIso(), updatedBy, version: sql<number>`${sql.ref("version")} + 1` as never };
  if (input.fullName !== undefined) values.fullName = input.fullName;
  if (input.email !== undefined) values.email = input.email;
  if (input.phone !== undefined) {
    values.phone = input.phone;
    values.phoneDigits = phoneDigits(input.phone);
  }
  if (input.preferredCourse !== undefined) values.preferredCourse = input.preferredCourse;
  if (input.preferredMode !== undefined) values.preferredMode = input.preferredMode;
  if (input.message !== undefined) values.message = input.message;
  if (input.whatsappNotifications !== undefined) values.whatsappNotifications = input.whatsappNotifications ? 1 : 0;
  if (input.filePaths !== undefined) values.filePaths = listToText(input.filePaths);
  if (input.status !== undefined) values.status = input.status;
  if (input.assigneeId !== undefined) values.assigneeId = input.assigneeId;
  if (input.followUpAt !== undefined) values.followUpAt = input.followUpAt;
  if (input.scheduleId !== undefined) values.scheduleId = input.scheduleId;
  if (input.firstStatusChangeAt !== undefined) values.firstStatusChangeAt = input.firstStatusChangeAt;
  if (input.touchedAt !== undefined) values.touchedAt = input.touchedAt;
  if (input.escalatedAt !== undefined) values.escalatedAt = input.escalatedAt;
  let update = db().updateTable("enquiries").set(values).where("id", "=", id);
  if (version !== undefined) update = update.where("version", "=", version);
  const r = await update.executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  return getEnquiry(id);
}

/** Returns the deleted enquiry so its attached files can be removed. */
export async function deleteEnquiryRow(id: string): Promise<Enquiry | null> {
  const enquiry = await getEnquiry(id);
  if (!enquiry) return null;
  await db().deleteFrom("enquiries").where("id", "=", id).execute();
  return enquiry;
}

/** A deleted staff member or batch is no longer named by any enquiry. */
export async function clearEnquiryReferences(field: "assigneeId" | "scheduleId", ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db()
    .updateTable("enquiries")
    .set({ [field]: null })
    .where(field, "in", ids)
    .execute();
}

// ---------------------------------------------------------------- possible duplicates

/** Earlier enquiries (since `since`) with the same phone number or e-mail: possible duplicates of a new one. */
export async function findEnquiriesLike(phone: string, email: string, since: string, exceptId: string): Promise<string[]> {
  const digits = phoneDigits(phone);
  const rows = await db()
    .selectFrom("enquiries")
    .select("id")
    .where("createdAt", ">=", since)
    .where("id", "!=", exceptId)
    .where("privacyState", "=", SHOWN_TO_STAFF)
    .where((eb) => eb.or([...(digits.length >= 10 ? [eb("phoneDigits", "=", digits)] : []), eb("email", "=", email)]))
    .orderBy("createdAt", "desc")
    .limit(20)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Links an enquiry with each of `others` both ways. Only link rows are written: flagging the older enquiries
 * in place made every submission with a common phone update the same rows, which deadlocked InnoDB under load.
 */
export async function linkDuplicates(id: string, others: string[]): Promise<void> {
  if (!others.length) return;
  const createdAt = nowIso();
  await db()
    .insertInto("enquiry_duplicates")
    .values(
      others.flatMap((other) => [
        { enquiryId: id, otherId: other, createdAt },
        { enquiryId: other, otherId: id, createdAt },
      ]),
    )
    .execute();
}

/**
 * The enquiries each of `ids` is linked to as a possible duplicate (those staff can see: not held, not erased).
 * Two reads, each from an index: the links of the page's enquiries (the primary key), then which of the others
 * staff can see (by id). One join let SQLite start from the enquiries table and probe the links for each of its
 * 100,000 rows (110 ms for a page of 20, issue 30's bench).
 */
export async function duplicatesOf(ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const links = await db().selectFrom("enquiry_duplicates").select(["enquiryId", "otherId", "createdAt"]).where("enquiryId", "in", ids).execute();
  if (!links.length) return out;
  const others = await db()
    .selectFrom("enquiries")
    .select(["id", "createdAt"])
    .where("id", "in", [...new Set(links.map((l) => l.otherId))])
    .where("privacyState", "=", SHOWN_TO_STAFF)
    .execute();
  const age = new Map(others.map((o) => [o.id, o.createdAt]));
  // Links made together share their time: the other enquiry's age, then its id, keep one order on every read and
  // database.
  const order = (a: (typeof links)[number], b: (typeof links)[number]) =>
    a.createdAt.localeCompare(b.createdAt) || age.get(a.otherId)!.localeCompare(age.get(b.otherId)!) || a.otherId.localeCompare(b.otherId);
  for (const link of links.filter((l) => age.has(l.otherId)).sort(order)) out.get(link.enquiryId)?.push(link.otherId);
  return out;
}

/** A deleted enquiry's links go, both ways. */
export async function unlinkDuplicates(id: string): Promise<void> {
  await db()
    .deleteFrom("enquiry_duplicates")
    .where((eb) => eb.or([eb("enquiryId", "=", id), eb("otherId", "=", id)]))
    .execute();
}

// ---------------------------------------------------------------- staff activity and escalation

/** A note was written: the enquiry counts as touched (no new version: nothing a form shows has changed). */
export async function touchEnquiry(id: string, at: string): Promise<void> {
  await db().updateTable("enquiries").set({ touchedAt: at }).where("id", "=", id).execute();
}

/** New enquiries that came in within [since, before) and nobody has touched, not escalated yet: oldest first. */
export async function listEscalationDue({ since, before }: { since: string; before: string }, limit = 200): Promise<Enquiry[]> {
  const rows = await db()
    .selectFrom("enquiries")
    .selectAll()
    // Held for a guardian's consent or erased: nobody is to call it yet (or ever).
    .where("privacyState", "=", SHOWN_TO_STAFF)
    .where("status", "=", "new")
    .where("escalatedAt", "is", null)
    .where("touchedAt", "is", null)
    .where("createdAt", ">=", since)
    .where("createdAt", "<", before)
    .orderBy("createdAt")
    .limit(limit)
    .execute();
  return rows.map(toEnquiry);
}

/** Marks one escalated, once: of several instances (or runs) exactly one gets true. No new version. */
export async function markEscalated(id: string, at: string): Promise<boolean> {
  const r = await db().updateTable("enquiries").set({ escalatedAt: at }).where("id", "=", id).where("escalatedAt", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// ---------------------------------------------------------------- figures for the dashboard

/** New enquiries nobody has answered within the promised 24 hours (spec §9). */
export async function countUnansweredSince(before: string): Promise<number> {
  const r = await db()
    .selectFrom("enquiries")
    .where("privacyState", "=", SHOWN_TO_STAFF)
    .where("status", "=", "new")
    .where("firstStatusChangeAt", "is", null)
    .where("createdAt", "<", before)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Enquiries received in each [from, before) window. Counted per UTC hour in SQL (one pass over the createdAt
 * index, a few thousand groups) and added up per window here, so any window edge on the hour (a Hyderabad day
 * starts at 18:30 UTC: on the half hour) is exact: the half hours either side are counted apart.
 */
export async function countInWindows(windows: { from: string; before: string }[]): Promise<number[]> {
  if (!windows.length) return [];
  const first = windows.reduce((min, w) => (w.from < min ? w.from : min), windows[0].from);
  const last = windows.reduce((max, w) => (w.before > max ? w.before : max), windows[0].before);
  // "2031-06-08T18:3" groups by ten minutes: fine enough for half-hour time zones, few enough groups.
  const bucket = sql<string>`substr(${sql.ref("createdAt")}, 1, 15)`;
  const rows = await db()
    .selectFrom("enquiries")
    .where("createdAt", ">=", first)
    .where("createdAt", "<", last)
    .where("privacyState", "<>", "held")
    .select([bucket.as("bucket"), (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy(bucket)
    .execute();
  const counts = windows.map(() => 0);
  for (const row of rows) {
    const at = `${row.bucket}0:00.000Z`.slice(0, 24);
    const i = windows.findIndex((w) => at >= w.from && at < w.before);
    if (i >= 0) counts[i] += Number(row.n);
  }
  return counts;
}

/** One group of the dashboard's figures: enquiries by status, course and source, and whether within the recent window. */
export type FigureGroup = { status: string; preferredCourse: string; sourceLabel: string; recent: boolean; count: number };

/**
 * The enquiries received since `since` (not held), counted by status, course and source, and whether they came
 * since `recentSince`: the dashboard's funnels (30 and 90 days) and its course and source tables from one pass over
 * the covering index of migration 0050 (a few dozen groups), instead of one grouped pass each.
 */
export async function countFigureGroupsSince(since: string, recentSince: string): Promise<FigureGroup[]> {
  const recent = sql<number>`case when ${sql.ref("createdAt")} >= ${recentSince} then 1 else 0 end`;
  const rows = await db()
    .selectFrom("enquiries")
    .where("createdAt", ">=", since)
    .where("privacyState", "<>", "held")
    .select(["status", "preferredCourse", "sourceLabel", recent.as("recent"), (eb) => eb.fn.countAll<number>().as("n")])
    // By the alias: MySQL's ONLY_FULL_GROUP_BY would not match the expression (its parameter) in SELECT and GROUP BY.
    .groupBy(["status", "preferredCourse", "sourceLabel", sql`${sql.ref("recent")}`])
    .execute();
  return rows.map((r) => ({
    status: r.status,
    preferredCourse: r.preferredCourse,
    sourceLabel: r.sourceLabel,
    recent: Number(r.recent) === 1,
    count: Number(r.n),
  }));
}

/** The sources staff can filter by: every label used so far. */
export async function listSourceLabels(): Promise<string[]> {
  const rows = await db().selectFrom("enquiries").select("sourceLabel").distinct().orderBy("sourceLabel").limit(200).execute();
  return rows.map((r) => r.sourceLabel);
}
