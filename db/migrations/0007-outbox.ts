import { MysqlAdapter, sql, type Kysely } from "kysely";

/**
 * The outbox: every e-mail and webhook the app owes someone, written in the same transaction as the
 * enquiry or contact query that causes it, so a message is never lost (a crash after the commit leaves the
 * row) and never sent for a submission that was rolled back. A worker in each app process delivers the rows
 * (app/infra/outbox-worker.server.ts); a lease (`leaseUntil`, `leaseToken`) taken with one conditional UPDATE
 * keeps two processes from sending the same row at once, and an expired lease makes a row claimable again
 * after a process died mid-delivery.
 *
 * Times are ISO-8601 UTC strings of one fixed length (as everywhere in this schema), so comparing them as
 * text compares the instants, on SQLite and MySQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  await db.schema
    .createTable("outbox")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("kind", "varchar(10)", (c) => c.notNull())
    .addColumn("event", "varchar(40)", (c) => c.notNull())
    .addColumn("template", "varchar(40)", (c) => c.notNull().defaultTo(""))
    .addColumn("recipient", "varchar(2000)", (c) => c.notNull())
    .addColumn("subject", "varchar(400)", (c) => c.notNull())
    // A webhook's body (the record as it came in); MySQL's TEXT (64 KB) could be too small for a long message.
    .addColumn("payload", mysql ? sql`mediumtext` : "text", (c) => c.notNull())
    .addColumn("entityType", "varchar(20)")
    .addColumn("entityId", "varchar(64)")
    .addColumn("status", "varchar(12)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastError", "varchar(1000)")
    .addColumn("nextAttemptAt", "varchar(24)", (c) => c.notNull())
    .addColumn("retryUntil", "varchar(24)", (c) => c.notNull())
    .addColumn("leaseUntil", "varchar(24)")
    .addColumn("leaseToken", "varchar(36)")
    .addColumn("lastAttemptAt", "varchar(24)")
    .addColumn("sentAt", "varchar(24)")
    .addColumn("createdAt", "varchar(24)", (c) => c.notNull())
    .addColumn("updatedAt", "varchar(24)", (c) => c.notNull())
    // SQLite: the rows live in the primary key's own b-tree (as InnoDB keeps them on MySQL), one b-tree fewer
    // for every submission to write. The rows are small: e-mails are rendered from the record when sent.
    .$call((t) => (mysql ? t : t.modifyEnd(sql`without rowid`)))
    .execute();
  // Ids are UUIDv7 (time first), so the primary key is also the order of arrival: the Outbox screen lists
  // newest first by id, all or one status, and the worker's poll finds the pending rows through the same
  // index. Every index is written by every submission, so there is just this one.
  await db.schema.createIndex("outbox_status_id").on("outbox").columns(["status", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("outbox").execute();
}
