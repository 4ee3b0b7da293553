import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * Issue 39: a common name searched on MySQL/MariaDB costs what its page costs, not what its matches do.
 *
 * The name's FULLTEXT index (migration 0050) hands over its matches' rows one by one: counting the 8,334 "Priya"s of
 * 100,000 enquiries read each of them (30 ms), and MariaDB cannot count from the index alone. This table holds
 * each word of 3 characters or more of the name of every enquiry staff may see (not held, not erased), by word, with
 * the enquiry's status (a search within a status tab, the commonest narrowing, is counted here too):
 * a word's beginning is one range of its primary key, counted there without reading an enquiry (under 5 ms for the
 * "Priya"s), and joined by (createdAt, id) to a list index when other filters apply
 * (app/models/enquiry.server.ts, nameWordEntries).
 *
 * Kept by triggers in the same transaction as every write, so rows written by any client (raw SQL too) are found:
 * a new enquiry's words are added, a change of name, status, privacy state or arrival time replaces them, an erasure
 * or a delete removes them. A word is a run of letters and digits (what the search splits a term into); a repeated word
 * is kept once (the collation ignores case and accents). It is made from the enquiries, not data: backups leave it
 * out and a restore's rows fill it through the triggers (app/models/backup-data.server.ts). SQLite searches its
 * FTS5 index instead: nothing here.
 */
export const NAME_WORDS_TABLE = "enquiry_name_words";

/** The statements that add a row's words (`row` is new or old), for the triggers' bodies. */
function addWords(row: "new"): string {
  return `if ${row}.privacyState = '' then
      set rest = trim(regexp_replace(${row}.fullName, '[^[:alnum:]]+', ' '));
      while rest <> '' do
        set word = substring_index(rest, ' ', 1);
        set rest = substring(rest, char_length(word) + 2);
        if char_length(word) >= 3 then
          insert ignore into ${NAME_WORDS_TABLE} (word, createdAt, id, status) values (left(word, 100), ${row}.createdAt, ${row}.id, ${row}.status);
        end if;
      end while;
    end if;`;
}

const declarations = (charset: string, collation: string) => `declare rest varchar(400) character set ${charset} collate ${collation} default '';
    declare word varchar(400) character set ${charset} collate ${collation} default '';`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof MysqlAdapter)) return;
  // The enquiries' own character set and collation (the database's default when they were made), so the join and
  // the triggers compare like with like and a word matches as the name's column would.
  const { rows } = await sql<{ charset: string; collation: string }>`select character_set_name as ${sql.id("charset")}, collation_name as ${sql.id("collation")}
    from information_schema.columns where table_schema = database() and table_name = 'enquiries' and column_name = 'fullName'`.execute(db);
  const { charset, collation } = rows[0];
  if (!/^\w+$/.test(charset) || !/^\w+$/.test(collation)) throw new Error(`Unexpected collation of enquiries.fullName: ${charset} ${collation}`);
  // (word, createdAt, id): a word's enquiries in the order of arrival, and the key a list index is joined by.
  await sql
    .raw(
      `create table ${NAME_WORDS_TABLE} (
      word varchar(100) not null,
      createdAt varchar(24) not null,
      id varchar(36) not null,
      status varchar(10) not null,
      primary key (word, createdAt, id),
      key ${NAME_WORDS_TABLE}_id (id, word)
    ) engine=InnoDB default charset=${charset} collate=${collation}`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${NAME_WORDS_TABLE}_insert after insert on enquiries for each row
    begin
    ${declarations(charset, collation)}
    ${addWords("new")}
    end`,
    )
    .execute(db);
  // Only a change of what the words are made of, or of the status they carry, touches them (a note, a follow-up do not).
  await sql
    .raw(
      `create trigger ${NAME_WORDS_TABLE}_update after update on enquiries for each row
    begin
    ${declarations(charset, collation)}
    if not (old.fullName <=> new.fullName and old.privacyState <=> new.privacyState and old.createdAt <=> new.createdAt and old.id <=> new.id and old.status <=> new.status) then
      delete from ${NAME_WORDS_TABLE} where id = old.id;
      ${addWords("new")}
    end if;
    end`,
    )
    .execute(db);
  await sql
    .raw(`create trigger ${NAME_WORDS_TABLE}_delete after delete on enquiries for each row delete from ${NAME_WORDS_TABLE} where id = old.id`)
    .execute(db);
  // The enquiries already there, split the same way.
  await sql
    .raw(
      `insert ignore into ${NAME_WORDS_TABLE} (word, createdAt, id, status)
    with recursive w (id, createdAt, status, word, rest) as (
      select id, createdAt, status, substring_index(n, ' ', 1), substring(n, char_length(substring_index(n, ' ', 1)) + 2)
      from (select id, createdAt, status, cast(trim(regexp_replace(fullName, '[^[:alnum:]]+', ' ')) as char(400) character set ${charset}) collate ${collation} as n
        from enquiries where privacyState = '') e
      union all
      select id, createdAt, status, substring_index(rest, ' ', 1), substring(rest, char_length(substring_index(rest, ' ', 1)) + 2) from w where rest <> ''
    )
    select left(word, 100), createdAt, id, status from w where char_length(word) >= 3`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof MysqlAdapter)) return;
  for (const name of ["insert", "update", "delete"]) await sql.raw(`drop trigger if exists ${NAME_WORDS_TABLE}_${name}`).execute(db);
  await sql.raw(`drop table if exists ${NAME_WORDS_TABLE}`).execute(db);
}
