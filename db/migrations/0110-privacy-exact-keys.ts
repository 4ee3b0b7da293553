import { createHash } from "node:crypto";
import { MysqlAdapter, type Kysely } from "kysely";
import { contactMentions, NOTE_PREVIEW_CONTACT, replaceAnyContact } from "~/util/contact-mentions";

/**
 * Issue 36 (items 2 and 3): erasure and the /me links find people by exact keys only.
 *
 * - `contact_mentions`: each e-mail address and Indian phone number written in a timeline line (a staff note
 *   naming another lead's address, a value), normalised ("email:ravi@x.in", "phone:9876543210"), with the line's
 *   id. An erasure finds the lines of other records that mention a person by equality on this key, never by a
 *   search for a piece of text (which once turned "Sign-in with admin@… failed" into "[erased]-in with admi[erased]").
 *   Filled here from the lines already written.
 * - The audit log's note previews lose the e-mails and phone numbers they copied from notes (new ones are written
 *   masked): a note on one lead may name another person, and erasure no longer rewrites other records' entries.
 * - `privacy_links.addressHash`: the SHA-256 of the address a /me link was mailed to. The link opens the records
 *   of that address only, so a link mailed before staff changed a record's e-mail does not follow the new address.
 *   Existing links get the hash of their record's address when the record has not changed since the link was
 *   made; the others stop working (the person asks for a fresh one with "Where is my enquiry?").
 * - `outbox_template_created`: the e-mails to an address a visitor typed (acknowledgements, a guardian's consent
 *   request) are limited per address per day; they are counted among the day's rows of those templates.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = database as Kysely<any>;
  const mysql = database.getExecutor().adapter instanceof MysqlAdapter;
  await db.schema
    .createTable("contact_mentions")
    .addColumn("mention", "varchar(330)", (c) => c.notNull())
    .addColumn("entryId", "varchar(36)", (c) => c.notNull())
    .addPrimaryKeyConstraint("contact_mentions_pk", ["mention", "entryId"])
    .execute();
  await db.schema.createIndex("contact_mentions_entry").on("contact_mentions").columns(["entryId"]).execute();

  let after = "";
  for (;;) {
    const lines = await db
      .selectFrom("timeline_entries")
      .select(["id", "text", "fromValue", "toValue"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(1000)
      .execute();
    if (!lines.length) break;
    // The same reading the app uses when it writes a line (app/models/timeline.server.ts), so the keys match.
    const rows = lines.flatMap((l) => contactMentions(l.text, l.fromValue, l.toValue).map((mention) => ({ mention, entryId: l.id })));
    // Keys MariaDB's collation counts as one (case, accents) are kept once, as the app keeps them.
    const insert = db.insertInto("contact_mentions").values(rows);
    if (rows.length) await (mysql ? insert.ignore() : insert.onConflict((oc) => oc.doNothing())).execute();
    after = lines[lines.length - 1].id;
  }

  const notes = await db.selectFrom("audit_log").select(["id", "summary"]).where("action", "=", "note").execute();
  for (const note of notes) {
    const masked = replaceAnyContact(String(note.summary), NOTE_PREVIEW_CONTACT);
    if (masked !== note.summary) await db.updateTable("audit_log").set({ summary: masked }).where("id", "=", note.id).execute();
  }

  await db.schema.alterTable("privacy_links").addColumn("addressHash", "varchar(64)").execute();
  await db.schema.createIndex("outbox_template_created").on("outbox").columns(["template", "createdAt"]).execute();
  for (const table of ["enquiries", "contact_queries"] as const) {
    const links = await db
      .selectFrom("privacy_links as l")
      .innerJoin(`${table} as r`, "r.id", "l.subjectId")
      .select(["l.id", "r.email", "r.updatedAt", "l.createdAt"])
      .where("l.kind", "=", "me")
      .where("l.subjectType", "=", table === "enquiries" ? "enquiry" : "contact_query")
      .execute();
    for (const link of links) {
      if (!link.email || link.updatedAt > link.createdAt) continue;
      await db
        .updateTable("privacy_links")
        .set({ addressHash: createHash("sha256").update(String(link.email).trim().toLowerCase()).digest("hex") })
        .where("id", "=", link.id)
        .execute();
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  const dropOutbox = db.schema.dropIndex("outbox_template_created");
  await (mysql ? dropOutbox.on("outbox") : dropOutbox).execute();
  await db.schema.alterTable("privacy_links").dropColumn("addressHash").execute();
  const drop = db.schema.dropIndex("contact_mentions_entry");
  await (mysql ? drop.on("contact_mentions") : drop).execute();
  await db.schema.dropTable("contact_mentions").execute();
}
