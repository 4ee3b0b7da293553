import { MysqlAdapter, sql, type Kysely } from "kysely";
import { SEARCH_TABLE } from "./0050-indexed-search";

/**
 * Issue 39: SQLite's search index holds only the enquiries staff may see (privacy state '': not held for a guardian,
 * not erased), so a search's count is the index's count of its matches and nothing else.
 *
 * Before, the index held every enquiry and a count took away the matches staff may not see: a second pass of the
 * whole search through the index (gathering every match to test the few held ones against), which doubled the cost
 * of a common name (1.7 ms of 3 for the 8,334 "Priya"s at 100,000 enquiries). Every search already leaves those rows
 * out (app/models/enquiry.server.ts, filtered), so what it finds is the same.
 *
 * The index's content is a view of the rows staff may see, so FTS5's own 'rebuild' (a restore,
 * app/models/backup-data.server.ts) and 'integrity-check' read exactly what the triggers index. The triggers add a row
 * when it becomes one staff may see (a new enquiry, a guardian's consent) and remove it when it stops being one (held,
 * erased, deleted), with the values it was indexed with, as an external-content index requires. Secure delete stays
 * on (migration 0080). MySQL/MariaDB: nothing (their search reads the enquiries' own indexes, and the name word table
 * of migration 0180 already holds only rows staff may see).
 */
export const SEARCH_CONTENT_VIEW = "enquiries_search_content";

const COLUMNS = "fullName, email, phone, phoneDigits";
const TRIGGERS = ["enquiries_search_insert", "enquiries_search_delete", "enquiries_search_update"];

async function run(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * The statements that make the index, its triggers and its content afresh: over the rows staff may see (a view, and
 * triggers that move a row in or out with its privacy state), or, for `down`, over every row as migration 0050 made it.
 * Rows the index does not hold are neither added nor removed.
 */
function indexStatements(shownOnly: boolean): string[] {
  const only = (row: "new" | "old") => (shownOnly ? ` where ${row}.privacyState = ''` : "");
  const add = `insert into ${SEARCH_TABLE}(rowid, ${COLUMNS}) select new.rowid, new.fullName, new.email, new.phone, new.phoneDigits${only("new")}`;
  const remove = `insert into ${SEARCH_TABLE}(${SEARCH_TABLE}, rowid, ${COLUMNS})
      select 'delete', old.rowid, old.fullName, old.email, old.phone, old.phoneDigits${only("old")}`;
  const content = shownOnly ? `content='${SEARCH_CONTENT_VIEW}', content_rowid='rid'` : `content='enquiries', content_rowid='rowid'`;
  return [
    ...TRIGGERS.map((name) => `drop trigger if exists ${name}`),
    `drop table if exists ${SEARCH_TABLE}`,
    `drop view if exists ${SEARCH_CONTENT_VIEW}`,
    ...(shownOnly ? [`create view ${SEARCH_CONTENT_VIEW} as select rowid as rid, ${COLUMNS} from enquiries where privacyState = ''`] : []),
    `create virtual table ${SEARCH_TABLE} using fts5(${COLUMNS}, ${content}, tokenize='trigram remove_diacritics 1')`,
    `insert into ${SEARCH_TABLE}(${SEARCH_TABLE}, rank) values ('secure-delete', 1)`,
    `create trigger enquiries_search_insert after insert on enquiries begin ${add}; end`,
    `create trigger enquiries_search_delete after delete on enquiries begin ${remove}; end`,
    // Shown only: a change of privacy state moves the row in or out; a change of name, e-mail or phone replaces its terms.
    `create trigger enquiries_search_update after update of ${COLUMNS}${shownOnly ? ", privacyState" : ""} on enquiries begin ${remove}; ${add}; end`,
    `insert into ${SEARCH_TABLE}(${SEARCH_TABLE}) values ('rebuild')`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof MysqlAdapter) return;
  await run(db, indexStatements(true));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof MysqlAdapter) return;
  await run(db, indexStatements(false));
}
