import { CompiledQuery, sql, type Expression, type ExpressionBuilder, type RawBuilder, type Selectable, type SqlBool, type Updateable } from "kysely";
import { afterCommit, db, dialect, retriedOnDeadlock } from "~db/client.server";
import { NAME_WORDS_TABLE } from "~db/migrations/0180-name-words";
import { countListFigure, listPairValue, type ListFigure } from "./enquiry-day-figures.server";
import { countIndexMatches, indexMatchCondition, withGatheredMatches } from "./enquiry-search-matches.server";
import type { Database, EnquiriesTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { isPhoneOnlyTerm, phoneDigits, phoneSearchDigits } from "~/util/phone";
import { OPEN_ENQUIRY_STATUSES, SHOWN_TO_STAFF, type DeliveryMode, type EnquiryFormName, type EnquirySort, type EnquiryStatus } from "~/schemas/values";
import { contains, listToText, startsWith, pageBounds, parseList, toPage, type Page, type PageInput } from "./paging.server";

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

let writes = 0;

/**
 * How many writes to enquiries this process has made (a short-lived cache of a count compares it: see
 * app/services/staff-counts.server.ts). Moved on at the write and again at its commit, so a count read inside the
 * transaction is not kept either.
 */
export function enquiryWrites(): number {
  return writes;
}

/** Every function here (and in people.server.ts) that writes enquiries calls this. */
export function enquiriesWritten(): void {
  writes++;
  afterCommit(() => writes++);
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
  /** The batch (schedule id) it is for. */
  scheduleId?: string;
  ids?: string[];
  /** The first 8 digits of the id (a reference the visitor quoted, "ENQ-3F9A12BC"): the enquiry it names. */
  idPrefix?: string;
  /** Newest first unless said otherwise; a follow-up filter lists the earliest follow-up first. */
  sort?: EnquirySort;
  /**
   * A counsellor's queue: their overdue follow-ups first (earliest first), then New enquiries that are theirs or
   * nobody's, oldest first. Other filters narrow it further.
   */
  queue?: { userId: string; now: string };
};

/**
 * The status, kept from SQLite's choice of index: SQLite has no statistics (no ANALYZE) and would otherwise read an
 * overdue list through the status index and sort it, instead of walking the follow-up index in the list's order.
 * MySQL/MariaDB choose from their statistics.
 */
function statusNotIndexed() {
  return dialect() === "sqlite" ? sql<string>`+${sql.ref("status")}` : sql<string>`${sql.ref("status")}`;
}

/**
 * The rows a list's filters match, of those staff may see. Every list index holds the privacy state after its
 * filter's column (migration 0100), so the same rows serve a page (walking the index in order) and the count (read
 * from the index alone).
 */
function filtered(filter: EnquiryFilter, { walkOrder = false, index }: { walkOrder?: boolean; forCount?: boolean; index?: string } = {}) {
  const term = filter.q?.trim();
  // SQLite has no statistics to tell it a search's matches are few, and an indexed privacy test makes it walk a
  // list index, looking up each row. A page of a search reads its matches by rowid instead, and a short term (looked
  // for row by row) reads every row once in the table's order. Kept: a page that walks the list's order on purpose
  // (walkOrder), and the count of an indexed term (it reads a list index alone, testing each entry against the matches).
  // A count of an indexed term reads its matches from the search index too, each by rowid (issue 39: testing every
  // entry of a list index against the matches read the whole index whatever the term, 17 ms at 100,000 enquiries
  // for one e-mail); its cost follows the matches.
  const privacyState = dialect() === "sqlite" && term && !walkOrder ? sql<string>`+${sql.ref("privacyState")}` : sql<string>`${sql.ref("privacyState")}`;
  let q = fromEnquiries(index).where(privacyState, "=", SHOWN_TO_STAFF);
  if (filter.ids) q = q.where("id", "in", filter.ids.length ? filter.ids : [""]);
  // A UUID's first 8 digits end at its first hyphen: a range on the primary key (both databases use its index).
  if (filter.idPrefix) q = q.where("id", ">=", `${filter.idPrefix}-`).where("id", "<", `${filter.idPrefix}.`);
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
      .where((eb) => eb(filter.status ? eb.ref("status") : statusNotIndexed(), "in", OPEN_ENQUIRY_STATUSES));
  if (filter.scheduleId) q = q.where("scheduleId", "=", filter.scheduleId);
  if (filter.source) q = q.where("sourceLabel", "=", filter.source);
  if (filter.form) q = q.where("sourceForm", "=", filter.form);
  if (filter.createdFrom) q = q.where("createdAt", ">=", filter.createdFrom);
  if (filter.createdBefore) q = q.where("createdAt", "<", filter.createdBefore);
  if (term) q = q.where(searchCondition(term, walkOrder));
  return q;
}

/**
 * The enquiries table, read through the named index when one is given (FORCE INDEX on MySQL/MariaDB, INDEXED BY on
 * SQLite): for the list shapes whose best index the databases do not find themselves (see listIndex).
 */
function fromEnquiries(index?: string) {
  const plain = db().selectFrom("enquiries");
  if (!index) return plain;
  const hint = dialect() === "mysql" ? sql`force index (${sql.id(index)})` : sql`indexed by ${sql.id(index)}`;
  return db().selectFrom(sql<EnquiriesTable>`${sql.table("enquiries")}`.as<"enquiries">(sql`${sql.id("enquiries")} ${hint}`)) as unknown as typeof plain;
}

/** The trigram index's shortest term: shorter ones are looked for row by row (LIKE), as before issue 30. */
const INDEXED_TERM_LENGTH = 3;

/**
 * Staff search: part of a name, a whole or partial e-mail, a phone as typed or some of its digits; case and
 * accents ignored. Answered from an index (migration 0050): the matching rows are found there first and the
 * list's other filters and order apply to them.
 * - SQLite: the FTS5 trigram index finds any part of 3 characters or more of the name, e-mail or phone.
 * - MySQL/MariaDB: the name's words by their beginnings (the word table of migration 0180), the e-mail by its beginning or its end, the
 *   phone by the beginning or the end of its number (README, "Search"). A list reads a few matches by their ids
 *   (fewMatchIds); this condition is for a broad term, and for the export's pages.
 * Terms under 3 characters (and, on MySQL, terms with no word of 3) are looked for row by row with LIKE.
 */
function searchCondition(term: string, walkOrder = false): RawBuilder<SqlBool> | ((eb: ExpressionBuilder<Database, "enquiries">) => Expression<SqlBool>) {
  const digits = phoneSearchDigits(term);
  const scan = (eb: ExpressionBuilder<Database, "enquiries">) =>
    eb.or([contains("fullName", term), contains("email", term), contains("phone", term), ...(digits ? [contains("phoneDigits", digits)] : [])]);
  if (!searchesAnIndex(term)) return scan;
  if (dialect() === "sqlite") return indexMatchCondition(term, walkOrder);
  return sql<SqlBool>`(${sql.join(mysqlSearchBranches(term, walkOrder), sql` or `)})`;
}

/**
 * A search with no other filter on SQLite, counted in the search index alone: it holds only the enquiries staff may
 * see (migration 0190), so its count of the matches is the list's. Looking up each match's row to read its privacy
 * state cost 9 ms for the 8,334 "Priya"s at 100,000 enquiries; this costs under 1. Null when the list has other
 * filters (those are tested on the rows).
 */
async function countSearchOnly(filter: EnquiryFilter, part: Part): Promise<number | null> {
  const term = filter.q?.trim();
  if (dialect() !== "sqlite" || !term || !searchesAnIndex(term) || part.only) return null;
  const { q: _q, page: _p, limit: _l, sort: _s, ...others } = filter;
  if (Object.values(others).some((v) => v !== undefined)) return null;
  return countIndexMatches(term);
}

/**
 * A broad search's count on MySQL/MariaDB from the name's word table (migration 0180): the enquiries one of whose
 * name's words begins with each word of the term, plus the few that match only by e-mail or phone (their ids read
 * from those indexes, as fewMatchIds does). With no other filter the word table is counted alone (it holds only
 * enquiries staff may see); with others, its entries are joined by (createdAt, id) to the list index of the filter
 * the database picks, so no enquiry is read either. The FULLTEXT index handed over each match's row: 30 ms for the
 * 8,334 "Priya"s at 100,000 enquiries, against 5 (and 17 for the closed ones). Null when the term has no word for
 * the table, or its e-mail or phone matches are many (then the rows are counted as before).
 */
async function countMysqlSearch(filter: EnquiryFilter, part: Part): Promise<number | null> {
  const term = filter.q?.trim();
  if (dialect() !== "mysql" || !term || !searchesAnIndex(term)) return null;
  const words = wordsToMatch(term);
  if (!words.length) return null;
  const [name, ...others] = mysqlSearchBranches(term);
  const rest = { ...filter, q: undefined };
  const reads = others.map((branch) => sql`(select ${sql.ref("id")} from ${sql.table("enquiries")} where ${branch} limit ${sql.lit(FEW_MATCHES + 1)})`);
  const [byName, otherIds] = await Promise.all([
    countByName(rest, part, words),
    reads.length ? sql<{ id: string }>`${sql.join(reads, sql` union `)}`.execute(db()).then((r) => r.rows.map((row) => row.id)) : [],
  ]);
  if (otherIds.length > FEW_MATCHES) return null;
  if (!otherIds.length) return byName;
  const within = filter.ids && new Set(filter.ids);
  const ids = otherIds.filter((id) => !within || within.has(id));
  return byName + (await countOf(partRows({ ...rest, ids }, part, { forCount: true }).where(sql<SqlBool>`not ${name}`)));
}

/** The enquiries whose name has the words (see countMysqlSearch), of those the filter (no term) and the part list. */
async function countByName(filter: EnquiryFilter, part: Part, words: string[]): Promise<number> {
  const { page: _p, limit: _l, sort: _s, q: _q, status, ...others } = filter;
  // No other filter than a status (a search within a status tab): counted in the word table alone, which holds it.
  if (!part.only && Object.values(others).every((v) => v === undefined)) {
    const entries = nameWordEntries(words, { status });
    const { rows } = await sql<{ n: number | string }>`select count(distinct ${sql.id("wid")}) as ${sql.id("n")} from (${entries}) as ${sql.id("nw")}`.execute(
      db(),
    );
    return Number(rows[0].n);
  }
  const entries = nameWordEntries(words);
  // Through no named index: the database picks the one its (createdAt, id) join reaches for the filter. A name with
  // two words of one beginning ("Priya Priyanka") has two entries: each enquiry is counted once.
  const filtered_ = filtered(filter, { forCount: true });
  const rows = (part.only ? filtered_.where(part.only) : filtered_)
    .innerJoin(sql<{ wid: string; wat: string }>`(${entries})`.as("nw"), (join) =>
      join.onRef("nw.wid", "=", "enquiries.id").onRef("nw.wat", "=", "enquiries.createdAt"),
    )
    .select(sql<number>`count(distinct ${sql.ref("enquiries.id")})`.as("n"));
  return Number((await rows.executeTakeFirstOrThrow()).n);
}

/**
 * The word table's entries (wid: the enquiry's id, wat: its createdAt) of the enquiries whose name has a word
 * beginning with each of `words`: the likely rarest word's range of the primary key, each other word tested by the
 * (id, word) index. A word's beginning is matched with LIKE: the words hold only letters and digits, never a
 * wildcard, and the table's collation ignores case and accents ("jose" finds "José"). With `status`, only the
 * entries of enquiries with that status.
 */
function nameWordEntries(
  words: string[],
  { idsOnly = false, status, ofRow = false }: { idsOnly?: boolean; status?: string; ofRow?: boolean } = {},
): RawBuilder<unknown> {
  const [first, ...others] = rarestFirst(words);
  const table = sql.table(NAME_WORDS_TABLE);
  const tests = [
    // ofRow: the entries of the enquiry the outer query is on, found by the (id, word) index.
    ...(ofRow ? [sql`${sql.ref("w0.id")} = ${sql.ref("enquiries.id")}`] : []),
    sql`${sql.ref("w0.word")} like ${`${first}%`}`,
    ...(status === undefined ? [] : [sql`${sql.ref("w0.status")} = ${status}`]),
    ...others.map((word, i) => {
      const w = `w${i + 1}`;
      return sql`exists (select 1 from ${table} as ${sql.id(w)} where ${sql.ref(`${w}.id`)} = ${sql.ref("w0.id")} and ${sql.ref(`${w}.word`)} like ${`${word}%`})`;
    }),
  ];
  const columns = idsOnly ? sql`${sql.ref("w0.id")}` : sql`${sql.ref("w0.id")} as ${sql.id("wid")}, ${sql.ref("w0.createdAt")} as ${sql.id("wat")}`;
  return sql`select ${columns} from ${table} as ${sql.id("w0")} where ${sql.join(tests, sql` and `)}`;
}

/**
 * MySQL/MariaDB's ways to a search's matches, each through an index: the name's words by their beginnings
 * (the word table, see nameWordEntries), the e-mail by its beginning or its end, and the phone number by its beginning after any country code,
 * its beginning as stored (with one: "9181234…", from the (phoneDigits, createdAt) index of migration 0010) and its end.
 */
function mysqlSearchBranches(term: string, walkOrder = false): RawBuilder<SqlBool>[] {
  const digits = phoneSearchDigits(term);
  const words = wordsToMatch(term);
  const reversed = (text: string) => [...text].reverse().join("");
  const branches: RawBuilder<SqlBool>[] = [];
  // walkOrder (a broad term's page near an end of its list, found after a few hundred rows of the list's order):
  // each row's own entries are looked up. As "id in (…)" the database first copied every match's id into a
  // temporary table: 2.6 of the 3.1 ms of a page of the 8,333 "kulkarni"s at 100,000 enquiries, against 0.8.
  if (words.length && walkOrder) branches.push(sql<SqlBool>`(${nameWordEntries(words, { idsOnly: true, ofRow: true })} limit 1) is not null`);
  else if (words.length) branches.push(sql<SqlBool>`${sql.ref("id")} in (${nameWordEntries(words, { idsOnly: true })})`);
  if (!/\s/.test(term) && !isPhoneOnlyTerm(term)) branches.push(startsWith("email", term), startsWith("emailReversed", reversed(term)));
  if (digits) branches.push(startsWith("phoneNational", digits), startsWith("phoneDigits", digits), startsWith("phoneReversed", reversed(digits)));
  return branches;
}

/**
 * The words of a term, the likely rarest first (one with digits, then the longest): its range of the word table is
 * read and each other word tested on its entries, so the fewer they are the better. With the FULLTEXT index this
 * order took "Kiran Das 37000" from 39 ms to 1.6 at 100,000 enquiries. The matches are the same.
 */
function rarestFirst(words: string[]): string[] {
  const rank = (w: string) => (/\p{N}/u.test(w) ? 1000 : 0) + [...w].length;
  return [...words].sort((a, b) => rank(b) - rank(a));
}

/** Up to this many matches, MySQL/MariaDB's search works from their ids (see fewMatchIds). */
const FEW_MATCHES = 2000;

/**
 * The ids of a search's matches on MySQL/MariaDB, read from the indexes when there are at most FEW_MATCHES; null for
 * a broader term. A list then counts and pages those ids by primary key (an e-mail or phone: 3 ms at 100,000
 * enquiries). A broad term is tested row by row instead (every branch at once, OR): gathering and de-duplicating tens
 * of thousands of ids from the indexes costs more than one pass over the table (the 8,000 "Priya"s: 100 ms for a
 * count and a page, against 50; an e-mail domain that every row has: 900 ms, against 50), and a page near either end
 * of a broad term's list finds its rows after a few index entries.
 */
async function fewMatchIds(term: string): Promise<string[] | null> {
  const words = wordsToMatch(term);
  const branches = mysqlSearchBranches(term);
  const reads = (words.length ? branches.slice(1) : branches).map(
    (branch) => sql`(select ${sql.ref("id")} from ${sql.table("enquiries")} where ${branch} limit ${sql.lit(FEW_MATCHES + 1)})`,
  );
  // The name's matches straight from the word table (one entry per word that matches: each id once).
  if (words.length)
    reads.unshift(
      sql`(select distinct ${sql.ref("id")} from (${nameWordEntries(words, { idsOnly: true })}) as ${sql.id("nw")} limit ${sql.lit(FEW_MATCHES + 1)})`,
    );
  const { rows } = await sql<{ id: string }>`${sql.join(reads, sql` union `)}`.execute(db());
  return rows.length > FEW_MATCHES ? null : rows.map((r) => r.id);
}

/** The words of a term MySQL/MariaDB look for in the name's word table (by their beginnings); none in a phone number. */
function wordsToMatch(term: string): string[] {
  if (isPhoneOnlyTerm(term)) return [];
  return term.split(/[^\p{L}\p{N}]+/u).filter((w) => [...w].length >= INDEXED_TERM_LENGTH);
}

/** Whether a term is looked for in an index (else row by row, with LIKE). */
function searchesAnIndex(term: string): boolean {
  if ([...term].length < INDEXED_TERM_LENGTH) return false;
  return dialect() === "sqlite" || wordsToMatch(term).length > 0 || !/\s/.test(term) || Boolean(phoneSearchDigits(term));
}

type EnquiryRow = Selectable<EnquiriesTable>;
type EnquiryRows = ReturnType<typeof filtered>;

/** A list's order, column by column. Its last column is unique, so the order is total and reads the same from either end. */
type Order = readonly { column: "followUpAt" | "createdAt" | "id"; desc: boolean }[];
const NEWEST_FIRST: Order = [
  { column: "createdAt", desc: true },
  { column: "id", desc: true },
];
const OLDEST_FIRST: Order = [
  { column: "createdAt", desc: false },
  { column: "id", desc: false },
];
const EARLIEST_FOLLOW_UP_FIRST: Order = [{ column: "followUpAt", desc: false }, ...OLDEST_FIRST];

/**
 * A list is one or more parts shown one after the other, each its own rows in its own index's order, so no list
 * sorts every row it matches: the queue (overdue follow-ups, then New enquiries) and "Next follow-up first" (dated
 * follow-ups, then the rest, oldest first) are two. A follow-up filter lists the earliest follow-up first.
 */
type Part = {
  only?: (eb: ExpressionBuilder<Database, "enquiries">) => Expression<SqlBool>;
  order: Order;
  /** The indexes its count and its pages are read through (see listIndex). */
  indexes?: { count: string; page: string };
  /**
   * `only` as disjoint tests whose rows together are its rows, each one range of the count's index: counted one by
   * one and added up (SQLite reads an OR of ranges as the one range around them all).
   */
  countedAs?: ((eb: ExpressionBuilder<Database, "enquiries">) => Expression<SqlBool>)[];
};

function partsOf(filter: EnquiryFilter): Part[] {
  if (filter.queue) {
    const { userId, now } = filter.queue;
    return [
      // The owner's follow-ups in order, with their status (migration 0160).
      {
        only: overdueOf(userId, now),
        order: EARLIEST_FOLLOW_UP_FIRST,
        indexes: { count: "enquiries_shown_assignee_cover", page: "enquiries_shown_assignee_cover" },
      },
      // Counted from the three ranges of the queue's index; paged by walking the status index in order.
      {
        only: newFor(userId, now),
        countedAs: newForRanges(userId, now),
        order: OLDEST_FIRST,
        indexes: { count: "enquiries_queue_new", page: "enquiries_shown_status_cover" },
      },
    ];
  }
  if (filter.sort === "follow-up" && filter.followUp === undefined) {
    return [
      { only: (eb) => eb("followUpAt", "is not", null), order: EARLIEST_FOLLOW_UP_FIRST },
      { only: (eb) => eb("followUpAt", "is", null), order: OLDEST_FIRST },
    ];
  }
  if (filter.sort === "follow-up" || (filter.followUp !== undefined && filter.followUp !== "none")) return [{ order: EARLIEST_FOLLOW_UP_FIRST }];
  return [{ order: filter.sort === "oldest" ? OLDEST_FIRST : NEWEST_FIRST }];
}

/**
 * The index a part of a list is read through when the databases' own choice is worse (issue 39), else undefined (they
 * choose). Not for a search or a list of ids (read from the search index or by primary key).
 * - The queue's parts: named in partsOf. Both databases counted the New part by reading every New entry.
 * In the order of arrival, with no follow-up filter (its own index gives its order):
 * - A status with a mode, a course with a source: the index of the pair (migration 0160), counted from its range.
 * - Any other course with no status: the course index holds the other filters (migration 0150), so its pages and
 *   count are tested in the index as it is walked. SQLite walked the source index for "course + source" and looked
 *   up each row for its course; MariaDB (from statistics) the privacy-first follow-up index.
 * - A page far into a list of one part on MySQL/MariaDB (see deepPageIndex).
 */
function listIndex(filter: EnquiryFilter, part: Part, purpose: "count" | "page" | "deep page"): string | undefined {
  if (filter.q?.trim() || filter.ids) return undefined;
  if (part.indexes) return part.indexes[purpose === "count" ? "count" : "page"];
  // "Next follow-up first" with nothing else asked: MariaDB read the (privacyState, followUpAt, …) index as a ref on
  // the privacy state and stepped over every entry with no follow-up (nulls come first) before the first dated one:
  // 48,000 at 100,000 enquiries, 11 ms for its first page against 0.6 when the index is named (then a range).
  if (dialect() === "mysql" && filter.sort === "follow-up" && filtersNothing(filter)) return "enquiries_shown_follow_up_cover";
  if (part.order[0].column !== "createdAt" || filter.followUp) return undefined;
  if (purpose === "deep page" && dialect() === "mysql" && !part.only) return deepPageIndex(filter);
  if (filter.scheduleId) return undefined;
  if (filter.status && filter.mode) return "enquiries_shown_status_mode";
  if (filter.course && filter.source && !filter.status) return "enquiries_shown_course_source";
  if (filter.course && !filter.status) return "enquiries_shown_course_cover";
  return undefined;
}

/** Whether a list is every enquiry staff may see, in some order (no filter, no search: an empty box is none). */
function filtersNothing(filter: EnquiryFilter): boolean {
  return askedFilters(filter).length === 0;
}

/**
 * The filters a list asks for, by name, sorted: those set to something (an empty box is none, a blank search is
 * none; an owner of null is "nobody's").
 */
function askedFilters(filter: EnquiryFilter): string[] {
  const { page: _page, limit: _limit, sort: _sort, ...filters } = filter;
  return Object.entries(filters)
    .filter(([key, value]) => value !== undefined && value !== "" && (value !== null || key === "assigneeId"))
    .filter(([key, value]) => key !== "q" || String(value).trim() !== "")
    .map(([key]) => key)
    .sort();
}

/** Where a page starts this far into its list, MySQL/MariaDB read it through the list's own index (deepPageIndex). */
const DEEP_PAGE = 200;

/**
 * MySQL/MariaDB's index for a page far into a list in the order of arrival: the one that starts with the list's
 * filter, then the privacy state and the order. For an ORDER BY with a LIMIT, MariaDB walks the order's index
 * (createdAt first) and tests each row, which is cheapest near the start; with an OFFSET of 9,980 that meant looking
 * up 40,000 rows to find the Contacted ones (64 ms at 100,000 enquiries, against 5 through the status index).
 */
function deepPageIndex(filter: EnquiryFilter): string {
  if (filter.status && filter.mode) return "enquiries_shown_status_mode";
  if (filter.course && filter.source) return "enquiries_shown_course_source";
  if (filter.status) return "enquiries_shown_status_cover";
  if (filter.course) return "enquiries_shown_course_cover";
  if (filter.scheduleId) return "enquiries_shown_schedule";
  if (filter.assigneeId !== undefined) return "enquiries_shown_assigneeId";
  if (filter.mode) return "enquiries_shown_preferredMode";
  if (filter.source) return "enquiries_shown_sourceLabel";
  if (filter.form) return "enquiries_shown_sourceForm";
  return "enquiries_shown_created";
}

function partRows(filter: EnquiryFilter, part: Part, options: { walkOrder?: boolean; forCount?: boolean; start?: number } = {}): EnquiryRows {
  const purpose = options.forCount ? "count" : (options.start ?? 0) >= DEEP_PAGE ? "deep page" : "page";
  const rows = filtered(filter, { ...options, index: listIndex(filter, part, purpose) });
  return part.only ? rows.where(part.only) : rows;
}

function inOrder(rows: EnquiryRows, order: Order, reverse = false) {
  let q = rows.selectAll();
  for (const { column, desc } of order) q = q.orderBy(column, desc !== reverse ? "desc" : "asc");
  return q;
}

/**
 * `take` rows from `start` in the order. MySQL/MariaDB read every row an OFFSET skips (400 ms for page 500 of a
 * list at 100,000 enquiries): far into a list, the page's ids are found in the index first and only their rows read.
 */
async function readPage(rows: EnquiryRows, order: Order, reverse: boolean, take: number, start: number): Promise<EnquiryRow[]> {
  if (dialect() !== "mysql" || start < DEEP_PAGE) return inOrder(rows, order, reverse).limit(take).offset(start).execute();
  let q = rows.select("id");
  for (const { column, desc } of order) q = q.orderBy(column, desc !== reverse ? "desc" : "asc");
  const ids = (await q.limit(take).offset(start).execute()).map((r) => r.id);
  if (!ids.length) return [];
  const found = await db().selectFrom("enquiries").selectAll().where("id", "in", ids).execute();
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The plan of a list's page query in its default order (EXPLAIN), one line per step, for scripts/bench-enquiries.ts;
 * a list of two parts (the queue, "Next follow-up first") has each part's plan, the second's lines marked "part 2:".
 */
export async function explainEnquiryList(filter: EnquiryFilter): Promise<string[]> {
  const { limit, offset } = pageBounds(filter);
  const few = await narrowedToFewMatches(filter);
  const lines: string[] = [];
  for (const [i, part] of partsOf(filter).entries()) {
    const compiled = few ? positionsOf(few, part).compile() : inOrder(partRows(filter, part), part.order).limit(limit).offset(offset).compile();
    const mark = (line: string) => (i ? `part ${i + 1}: ${line}` : line);
    if (dialect() === "sqlite") {
      const r = await db().executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      lines.push(...r.rows.map((row) => mark(row.detail)));
    } else {
      const r = await db().executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
      lines.push(
        ...r.rows.map((row) =>
          mark(`${String(row.table)} type=${String(row.type)} key=${String(row.key)} rows=${String(row.rows)} ${String(row.Extra ?? "")}`.trim()),
        ),
      );
    }
  }
  return lines;
}

/** The queue's first part: the counsellor's follow-ups past due on leads still open. */
function overdueOf(userId: string, now: string) {
  return (eb: ExpressionBuilder<Database, "enquiries">) =>
    eb.and([eb("assigneeId", "=", userId), eb("followUpAt", "<", now), eb("status", "in", OPEN_ENQUIRY_STATUSES)]);
}

/**
 * The queue's second part: New enquiries waiting for a first call, nobody's or the counsellor's. One with a follow-up
 * still to come is not waiting (a call that went unanswered, tried again tomorrow): it comes back, in the first part,
 * when the follow-up is due. So: the counsellor's with no follow-up (with a past one it is in the first part), and
 * nobody's with none or a past one. Written without NOT over the first part's test: a null owner or follow-up makes
 * that test unknown, and NOT unknown drops the row.
 */
function newFor(userId: string, now: string) {
  return (eb: ExpressionBuilder<Database, "enquiries">) =>
    eb.and([
      eb("status", "=", "new"),
      eb.or([
        eb.and([eb("assigneeId", "is", null), eb.or([eb("followUpAt", "is", null), eb("followUpAt", "<", now)])]),
        eb.and([eb("assigneeId", "=", userId), eb("followUpAt", "is", null)]),
      ]),
    ]);
}

/** The queue's second part (newFor) as its three ranges of the (status, privacyState, assigneeId, followUpAt) index. */
function newForRanges(userId: string, now: string) {
  return [
    (eb: ExpressionBuilder<Database, "enquiries">) => eb.and([eb("status", "=", "new"), eb("assigneeId", "is", null), eb("followUpAt", "is", null)]),
    (eb: ExpressionBuilder<Database, "enquiries">) => eb.and([eb("status", "=", "new"), eb("assigneeId", "is", null), eb("followUpAt", "<", now)]),
    (eb: ExpressionBuilder<Database, "enquiries">) => eb.and([eb("status", "=", "new"), eb("assigneeId", "=", userId), eb("followUpAt", "is", null)]),
  ];
}

/** A part's count (up to `cap`, else cap + 1 or more: see countUpTo), range by range when it has them (Part.countedAs). */
async function countPart(filter: EnquiryFilter, part: Part, cap?: number): Promise<number> {
  const count = (q: EnquiryRows) => (cap === undefined ? countOf(q) : countUpTo(q, cap));
  if (!part.countedAs) return count(partRows(filter, part, { forCount: true }));
  const rows = filtered(filter, { forCount: true, index: listIndex(filter, part, "count") });
  const counts = await Promise.all(part.countedAs.map((range) => count(rows.where(range))));
  return counts.reduce((sum, n) => sum + n, 0);
}

async function countOf(q: EnquiryRows): Promise<number> {
  return Number((await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
}

/**
 * A list's count stops here (issue 39): past it the list says "10,000+" and its pages are counted no further, so a
 * list costs what its page costs and no more than this many index entries, however many enquiries match. A page past
 * this many rows (the last page of a long list, which the screen reaches from its end) counts the part exactly.
 * The sidebar's and dashboard's figures (countMatching) stay exact.
 */
export const LIST_COUNT_CAP = 10_000;

/** The rows' count if at most `cap`, else cap + 1 (no more index entries are read). */
async function countUpTo(q: EnquiryRows, cap: number): Promise<number> {
  const first = q.select(sql.lit(1).as("one")).limit(cap + 1);
  const r = await db()
    .selectFrom(first.as("t"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Above this many matches a search's pages near the start of their order walk the list's order (see walksOrder). */
const WALK_ORDER_MATCHES = 500;

/**
 * A search's plan: few matches are read from the search index and sorted (on MySQL/MariaDB, by their ids); when many
 * match and the rows wanted are near the start of the order, walking the list's order until they are found reads far
 * fewer rows, each tested on its own (SQLite: against the gathered matches; MySQL/MariaDB: its own word entries).
 */
function walksOrder(filter: EnquiryFilter, matches: number, upTo: number): boolean {
  return Boolean(filter.q?.trim()) && matches > WALK_ORDER_MATCHES && upTo <= matches / 4;
}

/**
 * One page in the list's order, paged across its parts. Each part's rows are read from its nearer end (in the
 * reverse order, then turned round): OFFSET walks every row it skips, so the last page costs what the first does
 * and the middle one is the dearest, instead of the cost growing page by page to the end. A search on SQLite asks
 * the search index once, for the count and the page alike (withGatheredMatches).
 */
export async function pageEnquiries(filter: EnquiryFilter = {}): Promise<Page<Enquiry>> {
  const term = filter.q?.trim();
  if (dialect() === "sqlite" && term && searchesAnIndex(term)) return withGatheredMatches(term, () => pageInOrder(filter));
  return pageInOrder(filter);
}

async function pageInOrder(filter: EnquiryFilter): Promise<Page<Enquiry>> {
  const { page, limit, offset } = pageBounds(filter);
  const parts = partsOf(filter);
  // MySQL/MariaDB: a name search counted first; when its matches are many, their ids are not gathered (fewMatchIds
  // would read the word table a second time, up to FEW_MATCHES entries, only to find it a broad term).
  const nameCounts = await Promise.all(parts.map((part) => countMysqlSearch(filter, part)));
  const broad = nameCounts.every((n) => n !== null) && nameCounts.reduce((sum: number, n) => sum + n!, 0) > FEW_MATCHES;
  const few = broad ? null : await narrowedToFewMatches(filter);
  if (few) return pageOfFew(few, parts, { page, limit, offset });
  // Known exactly without reading the list: a search's count, or a list the running totals keep (figureOf).
  const searchCounts = await Promise.all(
    parts.map(async (part, i) => {
      const figure = figureOf(filter, parts.length, i);
      return nameCounts[i] ?? (await countSearchOnly(filter, part)) ?? (figure ? await countListFigure(figure) : null);
    }),
  );
  // The parts share the cap, counted one after the other: a list of two parts reads at most LIST_COUNT_CAP + 1
  // entries in all ("Next follow-up first" read up to 10,001 of each: its 20,000 dated ones and its 80,000 others).
  const counts: number[] = [];
  const caps: number[] = [];
  let left = LIST_COUNT_CAP;
  for (const [i, part] of parts.entries()) {
    const known = searchCounts[i];
    caps.push(known ?? left);
    counts.push(known ?? (await countPart(filter, part, left)));
    left = Math.max(0, left - counts[i]);
  }
  const exact = counts.map((n, i) => n <= caps[i]);
  const rows: EnquiryRow[] = [];
  let skip = offset;
  for (const [i, part] of parts.entries()) {
    if (rows.length === limit) break;
    // A page beyond the capped count (or ending there) needs the part's exact count, to read it from its nearer end.
    if (!exact[i] && skip + limit - rows.length > caps[i]) {
      counts[i] = await countPart(filter, part);
      exact[i] = true;
    }
    if (skip >= counts[i]) {
      skip -= counts[i];
      continue;
    }
    const take = Math.min(limit - rows.length, counts[i] - skip);
    const fromEnd = counts[i] - skip - take;
    const reverse = exact[i] && fromEnd < skip;
    const start = reverse ? fromEnd : skip;
    const partPage = partRows(filter, part, { walkOrder: walksOrder(filter, counts[i], start + take), start });
    const found = await readPage(partPage, part.order, reverse, take, start);
    rows.push(...(reverse ? found.reverse() : found));
    skip = 0;
  }
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (exact.every(Boolean)) return toPage(rows.map(toEnquiry), total, page, limit);
  // At least LIST_COUNT_CAP + 1: said as "10,000+", with as many pages as the cap fills (and this one, if further).
  const shown = toPage(rows.map(toEnquiry), LIST_COUNT_CAP, page, limit);
  return { ...shown, totalCapped: true, pages: Math.max(shown.pages, page) };
}

/**
 * The running totals' figure (migration 0200) that is part `i` of `count` parts of this list, or null when the list
 * is not one they keep: all enquiries; one status, course, source, mode, form, owner (or nobody), batch, or no
 * follow-up; a status with a mode; a course with a source; and "Next follow-up first" with nothing else (its dated
 * part and the rest). A search, a date range, a follow-up window, the queue and other combinations are counted
 * from their index, up to LIST_COUNT_CAP.
 */
function figureOf(filter: EnquiryFilter, count: number, i: number): ListFigure | null {
  const asked = askedFilters(filter).join(" ");
  if (count === 2) return asked === "" && filter.sort === "follow-up" ? { kind: "listfollow", value: i === 0 ? "dated" : "none" } : null;
  switch (asked) {
    case "":
      return { kind: "listall", value: "" };
    case "status":
      return { kind: "liststatus", value: filter.status! };
    case "course":
      return { kind: "listcourse", value: filter.course! };
    case "source":
      return { kind: "listsource", value: filter.source! };
    case "mode":
      return { kind: "listmode", value: filter.mode! };
    case "form":
      return { kind: "listform", value: filter.form! };
    case "assigneeId":
      return { kind: "listowner", value: filter.assigneeId ?? "" };
    case "scheduleId":
      return { kind: "listbatch", value: filter.scheduleId! };
    case "followUp":
      return filter.followUp === "none" ? { kind: "listfollow", value: "none" } : null;
    case "mode status":
      return { kind: "liststmode", value: listPairValue(filter.status!, filter.mode!) };
    case "course source":
      return { kind: "listcrsrc", value: listPairValue(filter.course!, filter.source!) };
    default:
      return null;
  }
}

/** On MySQL/MariaDB, a search with few matches as the same list narrowed to their ids (see fewMatchIds); else null. */
async function narrowedToFewMatches(filter: EnquiryFilter): Promise<EnquiryFilter | null> {
  const term = filter.q?.trim();
  if (dialect() !== "mysql" || !term || !searchesAnIndex(term)) return null;
  const ids = await fewMatchIds(term);
  if (!ids) return null;
  const within = filter.ids && new Set(filter.ids);
  return { ...filter, q: undefined, ids: within ? ids.filter((id) => within.has(id)) : ids };
}

/**
 * A page of a list narrowed to a few ids (MySQL/MariaDB's search): their positions are read by primary key and put
 * in order here. Asked for the page in SQL, MariaDB walks the list's order index from the newest row until it meets
 * them (its choice for ORDER BY with LIMIT): 150 ms for ten enquiries from a year ago at 100,000.
 */
async function pageOfFew(filter: EnquiryFilter, parts: Part[], { page, limit, offset }: { page: number; limit: number; offset: number }) {
  const ids: string[] = [];
  for (const part of parts) ids.push(...(await positionsOf(filter, part).execute()).sort(byOrder(part.order)).map((r) => r.id));
  const wanted = ids.slice(offset, offset + limit);
  const rows = wanted.length ? await db().selectFrom("enquiries").selectAll().where("id", "in", wanted).execute() : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return toPage(wanted.flatMap((id) => byId.get(id) ?? []).map(toEnquiry), ids.length, page, limit);
}

/** A part's rows as just what orders them (read by primary key when the filter names a few ids). */
function positionsOf(filter: EnquiryFilter, part: Part) {
  return partRows(filter, part).select(["id", "createdAt", "followUpAt"]);
}

/** An order as a comparison, as SQL sorts (no value before any; ids and instants are ASCII, so no collation differs). */
function byOrder(order: Order) {
  return (a: Record<Order[number]["column"], string | null>, b: Record<Order[number]["column"], string | null>) => {
    for (const { column, desc } of order) {
      const [x, y] = [a[column] ?? "", b[column] ?? ""];
      if (x !== y) return (x < y ? -1 : 1) * (desc ? -1 : 1);
    }
    return 0;
  };
}

/** The first page of rows in the list's order, without its count when one part holds it (a figure that shows the first few). */
export async function firstEnquiries(filter: EnquiryFilter): Promise<Enquiry[]> {
  const { limit } = pageBounds(filter);
  const parts = partsOf(filter);
  if (parts.length > 1) return (await pageEnquiries({ ...filter, page: 1 })).data;
  return (await inOrder(partRows(filter, parts[0]), parts[0].order).limit(limit).execute()).map(toEnquiry);
}

/**
 * The first enquiry of the counsellor's queue that is not one of `except` (the one open and those saved in this run
 * of calls: the details' Next in queue, "Save and open next"). `except` is short (the caller bounds it), so this
 * reads at most one page of the queue.
 */
export async function nextInQueue(queue: { userId: string; now: string }, except: readonly string[]): Promise<string | null> {
  const skip = new Set(except);
  const page = await pageEnquiries({ queue, limit: skip.size + 1 });
  return page.data.find((e) => !skip.has(e.id))?.id ?? null;
}

/**
 * Every row of a list, in the list's own order and parts (the queue, "Next follow-up first": what the screen shows),
 * read a page at a time by position, for exports: memory stays flat however many rows match, and rows added
 * meanwhile do not shift the pages.
 */
export async function* eachEnquiry(filter: EnquiryFilter, pageSize = 1000): AsyncGenerator<Enquiry[]> {
  for (const part of partsOf(filter)) {
    let last: EnquiryRow | null = null;
    for (;;) {
      const rows: EnquiryRow[] = await inOrder(last ? partRows(filter, part).where(after(part.order, last)) : partRows(filter, part), part.order)
        .limit(pageSize)
        .execute();
      if (rows.length) yield rows.map(toEnquiry);
      if (rows.length < pageSize) break;
      last = rows[rows.length - 1];
    }
  }
}

/**
 * The rows after `row` in `order` (a keyset condition: (a > x) or (a = x and b > y) …). A column that is null in
 * `row` is left out: within one part of a list the follow-up is either set on every row or on none (partsOf).
 */
function after(order: Order, row: EnquiryRow): RawBuilder<SqlBool> {
  const keys = order.filter(({ column }) => row[column] !== null);
  const branches = keys.map(({ column, desc }, i) =>
    sql.join(
      [...keys.slice(0, i).map((k) => sql`${sql.ref(k.column)} = ${row[k.column]}`), sql`${sql.ref(column)} ${sql.raw(desc ? "<" : ">")} ${row[column]}`],
      sql` and `,
    ),
  );
  return sql<SqlBool>`(${sql.join(
    branches.map((b) => sql`(${b})`),
    sql` or `,
  )})`;
}

/** How many enquiries a list's filters match, every part of it (the sidebar's and dashboard's counts: what the list says). */
export async function countMatching(filter: EnquiryFilter): Promise<number> {
  const counts = await Promise.all(partsOf(filter).map((part) => countPart(filter, part)));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** Whether an enquiry (erased ones too) has an id starting with these 8 digits: a new one's reference must be its own. */
export async function enquiryIdPrefixTaken(prefix: string): Promise<boolean> {
  const row = await db().selectFrom("enquiries").select("id").where("id", ">=", `${prefix}-`).where("id", "<", `${prefix}.`).limit(1).executeTakeFirst();
  return Boolean(row);
}

export async function getEnquiry(id: string): Promise<Enquiry | null> {
  const row = await db().selectFrom("enquiries").selectAll().where("id", "=", id).where("privacyState", "=", SHOWN_TO_STAFF).executeTakeFirst();
  return row ? toEnquiry(row) : null;
}

/**
 * Status is always "new" on create; a caller cannot choose it. The writes of enquiries here are run again when
 * MySQL/MariaDB picks them as a deadlock's victim (retriedOnDeadlock): the running totals' triggers (migrations 0170,
 * 0200) write a dozen figure rows of the enquiry's day.
 */
export async function insertEnquiry(input: EnquiryInput, opts: { id?: string; createdAt?: string } = {}): Promise<Enquiry> {
  enquiriesWritten();
  return retriedOnDeadlock(() => insertEnquiryRow(input, opts));
}

async function insertEnquiryRow(input: EnquiryInput, opts: { id?: string; createdAt?: string }): Promise<Enquiry> {
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
  enquiriesWritten();
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
  // A deadlock on the running totals' rows is run again (see insertEnquiry).
  return retriedOnDeadlock(async () => {
    let update = db().updateTable("enquiries").set(values).where("id", "=", id);
    if (version !== undefined) update = update.where("version", "=", version);
    const r = await update.executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return null;
    return getEnquiry(id);
  });
}

/** Returns the deleted enquiry so its attached files can be removed. */
export async function deleteEnquiryRow(id: string): Promise<Enquiry | null> {
  enquiriesWritten();
  return retriedOnDeadlock(async () => {
    const enquiry = await getEnquiry(id);
    if (!enquiry) return null;
    await db().deleteFrom("enquiries").where("id", "=", id).execute();
    return enquiry;
  });
}

/** A deleted staff member or batch is no longer named by any enquiry. */
export async function clearEnquiryReferences(field: "assigneeId" | "scheduleId", ids: string[]): Promise<void> {
  enquiriesWritten();
  if (!ids.length) return;
  await retriedOnDeadlock(() =>
    db()
      .updateTable("enquiries")
      .set({ [field]: null })
      .where(field, "in", ids)
      .execute(),
  );
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
  enquiriesWritten();
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
  enquiriesWritten();
  const r = await db().updateTable("enquiries").set({ escalatedAt: at }).where("id", "=", id).where("escalatedAt", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// ---------------------------------------------------------------- filter menus

/**
 * The sources staff can filter by: every label used so far (at most 200), in order. Read as a skip scan of the
 * (sourceLabel, …) index: each label is one seek for the first one after the previous, so the menu costs a few dozen
 * index reads however many enquiries there are. `select distinct` walked the whole index on every list request
 * (issue 39: 100,000 entries, several ms on SQLite, which has no skip scan without statistics).
 */
export async function listSourceLabels(): Promise<string[]> {
  if (dialect() === "mysql") {
    // MySQL/MariaDB skip-scan a GROUP BY on an index's first column themselves (loose index scan, "Using index for
    // group-by"); their recursive query took 78 ms at 100,000 enquiries.
    const rows = await db().selectFrom("enquiries").select("sourceLabel").groupBy("sourceLabel").orderBy("sourceLabel").limit(200).execute();
    return rows.map((r) => r.sourceLabel);
  }
  const label = sql.ref("sourceLabel");
  const { rows } = await sql<{ label: string | null }>`
    with recursive ${sql.id("labels")} (${sql.id("label")}, ${sql.id("n")}) as (
      select min(${label}), 1 from ${sql.table("enquiries")}
      union all
      select (select min(${label}) from ${sql.table("enquiries")} where ${label} > ${sql.ref("labels.label")}), ${sql.ref("labels.n")} + 1
      from ${sql.id("labels")} where ${sql.ref("labels.label")} is not null and ${sql.ref("labels.n")} < 200
    )
    select ${sql.id("label")} from ${sql.id("labels")} where ${sql.id("label")} is not null`.execute(db());
  return rows.map((r) => r.label!);
}
