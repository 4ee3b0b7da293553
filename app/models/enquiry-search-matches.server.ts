import { AsyncLocalStorage } from "node:async_hooks";
import { sql, type RawBuilder, type SqlBool } from "kysely";
import { db, inTransaction, inTransactionNow } from "~db/client.server";
import { SEARCH_TABLE } from "~db/migrations/0050-indexed-search";
import { isPhoneOnlyTerm, phoneSearchDigits } from "~/util/phone";

/**
 * SQLite's search index (FTS5, migrations 0050 and 0190) asked once per request (issue 39).
 *
 * A list's count and its page each asked the index for the term's matches: for a common name (8,334 "Priya"s, 8,333
 * "kulkarni"s at 100,000 enquiries) reading the trigrams' lists is most of the request, and it was done twice, the
 * page's pass also copying every match into a temporary set. Now the matches are gathered once, into a temporary
 * table on SQLite's one connection, and both read that table (its key is the row id, so a page walking the list's
 * order tests each row against it directly). Inside one transaction: no other request's search can refill the table
 * in between (on SQLite a transaction holds the only connection), and the count and the page see one state of the
 * enquiries. The table holds row ids only, in memory (db/client.server.ts sets temp_store), and is emptied before
 * each use.
 */
const MATCHES_TABLE = "enquiry_search_matches";

/** The term whose matches the table holds in this call chain, and how many there are. */
const gathered = new AsyncLocalStorage<{ term: string; count: number }>();

/**
 * The FTS5 query for a term: the term anywhere in the name, e-mail or phone, or its digits in the phone's (a term
 * that can only be a phone: its digits alone, see isPhoneOnlyTerm).
 */
export function ftsMatch(term: string): string {
  const digits = phoneSearchDigits(term);
  const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;
  if (isPhoneOnlyTerm(term)) return `phoneDigits : ${phrase(digits)}`;
  return [phrase(term), ...(digits ? [`phoneDigits : ${phrase(digits)}`] : [])].join(" OR ");
}

/**
 * Runs `work` in one transaction with the term's matches gathered (see above); SQLite only. Inside a caller's own
 * transaction the matches are not gathered (work asks the index itself): two searches run side by side in one
 * transaction would share the one table and read each other's matches.
 */
export async function withGatheredMatches<T>(term: string, work: () => Promise<T>): Promise<T> {
  if (inTransactionNow()) return work();
  return inTransaction(async () => {
    const table = sql`temp.${sql.id(MATCHES_TABLE)}`;
    await sql`create temp table if not exists ${sql.id(MATCHES_TABLE)} (rowid integer primary key)`.execute(db());
    await sql`delete from ${table}`.execute(db());
    const fts = sql.table(SEARCH_TABLE);
    const inserted = await sql`insert into ${table} (rowid) select rowid from ${fts} where ${fts} match ${ftsMatch(term)}`.execute(db());
    return gathered.run({ term, count: Number(inserted.numAffectedRows ?? 0) }, work);
  });
}

/**
 * How many enquiries staff may see match the term (the index holds no others, migration 0190): from the gathered
 * matches when they are this term's, else counted in the index.
 */
export async function countIndexMatches(term: string): Promise<number> {
  const store = gathered.getStore();
  if (store?.term === term) return store.count;
  const fts = sql.table(SEARCH_TABLE);
  const { rows } = await sql<{ n: number }>`select count(*) as ${sql.id("n")} from ${fts} where ${fts} match ${ftsMatch(term)}`.execute(db());
  return Number(rows[0].n);
}

/**
 * The test that a row of `enquiries` matches the term: one of the gathered matches when they are this term's, else
 * one the index finds. `walkOrder`: "+rowid" keeps SQLite from reading the matches by row id and sorting them all;
 * it walks the list's order index instead and keeps the rows that match (a common term's first pages).
 */
export function indexMatchCondition(term: string, walkOrder: boolean): RawBuilder<SqlBool> {
  const rowid = walkOrder ? sql`+rowid` : sql`rowid`;
  if (gathered.getStore()?.term === term) return sql<SqlBool>`${rowid} in (select rowid from temp.${sql.id(MATCHES_TABLE)})`;
  const fts = sql.table(SEARCH_TABLE);
  return sql<SqlBool>`${rowid} in (select rowid from ${fts} where ${fts} match ${ftsMatch(term)})`;
}
