import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * Issue 30: staff search and the lists and dashboard at 100,000 enquiries, each answered from an index.
 *
 * Search (app/models/enquiry.server.ts, searchedIds):
 * - SQLite: an FTS5 index `enquiries_search` over name, e-mail, phone and phone digits with the trigram tokenizer
 *   (any part of 3 characters or more, case and accents ignored), an external-content table over `enquiries`
 *   kept in step by the triggers below in the same transaction as every write. It is not data: backups skip it
 *   and a restore rebuilds it (app/models/backup-data.server.ts).
 * - MySQL/MariaDB (no trigram index there; MariaDB has no ngram parser): a FULLTEXT index on the name (words and
 *   their beginnings), and generated columns with indexes for the rest: the e-mail reversed (its end: "gmail.com"),
 *   the phone's last ten digits (the number's beginning: "98765") and its digits reversed (its end: "3210"); the
 *   e-mail's beginning uses the existing (email, createdAt) index. Generated columns are not data either: backups
 *   leave them out.
 *
 * Lists and dashboard: a counsellor's follow-ups (mine + due today / overdue) in the list's order, and the
 * dashboard's per-status, per-course and per-source counts of the last 90 days read from one covering index.
 */
export const SEARCH_TABLE = "enquiries_search";

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof MysqlAdapter) {
    await sql`alter table enquiries
      add column ${sql.ref("emailReversed")} varchar(254) as (reverse(${sql.ref("email")})) stored,
      add column ${sql.ref("phoneNational")} varchar(10) as (right(${sql.ref("phoneDigits")}, 10)) stored,
      add column ${sql.ref("phoneReversed")} varchar(40) as (reverse(${sql.ref("phoneDigits")})) stored`.execute(db);
    await db.schema.createIndex("enquiries_email_reversed").on("enquiries").column("emailReversed").execute();
    await db.schema.createIndex("enquiries_phone_national").on("enquiries").column("phoneNational").execute();
    await db.schema.createIndex("enquiries_phone_reversed").on("enquiries").column("phoneReversed").execute();
    await sql`create fulltext index enquiries_name_fulltext on enquiries (${sql.ref("fullName")})`.execute(db);
  } else {
    await sql
      .raw(
        `create virtual table ${SEARCH_TABLE} using fts5(
      fullName, email, phone, phoneDigits,
      content='enquiries', content_rowid='rowid', tokenize='trigram remove_diacritics 1')`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger enquiries_search_insert after insert on enquiries begin
      insert into ${SEARCH_TABLE}(rowid, fullName, email, phone, phoneDigits) values (new.rowid, new.fullName, new.email, new.phone, new.phoneDigits);
    end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger enquiries_search_delete after delete on enquiries begin
      insert into ${SEARCH_TABLE}(${SEARCH_TABLE}, rowid, fullName, email, phone, phoneDigits) values ('delete', old.rowid, old.fullName, old.email, old.phone, old.phoneDigits);
    end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger enquiries_search_update after update of fullName, email, phone, phoneDigits on enquiries begin
      insert into ${SEARCH_TABLE}(${SEARCH_TABLE}, rowid, fullName, email, phone, phoneDigits) values ('delete', old.rowid, old.fullName, old.email, old.phone, old.phoneDigits);
      insert into ${SEARCH_TABLE}(rowid, fullName, email, phone, phoneDigits) values (new.rowid, new.fullName, new.email, new.phone, new.phoneDigits);
    end`,
      )
      .execute(db);
    await sql.raw(`insert into ${SEARCH_TABLE}(${SEARCH_TABLE}) values ('rebuild')`).execute(db);
  }
  // Mine + due today / overdue, earliest follow-up first (the list's order for a follow-up filter).
  await db.schema.createIndex("enquiries_assignee_follow_up").on("enquiries").columns(["assigneeId", "followUpAt", "createdAt", "id"]).execute();
  // The dashboard's counts of the last 30 and 90 days (per status, course, source), from the index alone.
  await db.schema
    .createIndex("enquiries_created_figures")
    .on("enquiries")
    .columns(["createdAt", "privacyState", "status", "preferredCourse", "sourceLabel"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  for (const name of ["enquiries_assignee_follow_up", "enquiries_created_figures"]) {
    const drop = db.schema.dropIndex(name);
    await (mysql ? drop.on("enquiries") : drop).execute();
  }
  if (mysql) {
    await sql`drop index enquiries_name_fulltext on enquiries`.execute(db);
    for (const name of ["enquiries_email_reversed", "enquiries_phone_national", "enquiries_phone_reversed"])
      await db.schema.dropIndex(name).on("enquiries").execute();
    for (const column of ["emailReversed", "phoneNational", "phoneReversed"]) await db.schema.alterTable("enquiries").dropColumn(column).execute();
  } else {
    for (const name of ["enquiries_search_insert", "enquiries_search_delete", "enquiries_search_update"])
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    await sql.raw(`drop table if exists ${SEARCH_TABLE}`).execute(db);
  }
}
