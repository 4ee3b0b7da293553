import { sql, type Selectable } from "kysely";
import { db, dialect } from "~db/client.server";
import type { InvoicesTable } from "~db/schema";
import { newId } from "~/util/ids";
import type { InvoiceKind, InvoiceStatus, NumberSeries } from "~/schemas/fee-values";

/** Numbered series and the invoices and credit notes numbered in them (migration 0130). */

export type Invoice = Omit<Selectable<InvoicesTable>, "kind" | "status"> & { kind: InvoiceKind; status: InvoiceStatus };

const MONEY = ["taxablePaise", "cgstPaise", "sgstPaise", "igstPaise", "totalPaise", "cgstBp", "sgstBp", "igstBp", "serial"] as const;
const toInvoice = (r: Selectable<InvoicesTable>): Invoice => {
  const out = { ...r, kind: r.kind as InvoiceKind, status: r.status as InvoiceStatus };
  for (const k of MONEY) out[k] = Number(r[k]);
  return out;
};

/**
 * The next serial of a series in a financial year, inside the caller's transaction: one statement that creates the
 * counter row at 1 or adds one to it (INSERT … ON CONFLICT / ON DUPLICATE KEY UPDATE), then a read of it. The
 * statement holds the row's write lock until the transaction ends (SQLite: the database's), so two instances
 * issuing at once queue up and never read the same number; a transaction that rolls back takes its increment with
 * it, so no number is burnt. Never MAX(serial)+1: two readers would both see the same maximum.
 */
export async function nextSerial(series: NumberSeries, fy: string): Promise<number> {
  const id = `${series}:${fy}`;
  const insert = db().insertInto("number_series").values({ id, lastSerial: 1 });
  const bump = { lastSerial: sql<number>`${sql.ref("number_series.lastSerial")} + 1` };
  await (dialect() === "mysql" ? insert.onDuplicateKeyUpdate(bump) : insert.onConflict((oc) => oc.column("id").doUpdateSet(bump))).execute();
  const row = await db().selectFrom("number_series").select("lastSerial").where("id", "=", id).executeTakeFirstOrThrow();
  return Number(row.lastSerial);
}

export type InvoiceRow = Omit<Invoice, "id" | "status" | "cancelledById">;

export async function insertInvoice(input: InvoiceRow): Promise<Invoice> {
  const row = { ...input, id: newId(), status: "issued" as const, cancelledById: null };
  await db().insertInto("invoices").values(row).execute();
  return row;
}

export async function getInvoice(id: string): Promise<Invoice | null> {
  const r = await db().selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? toInvoice(r) : null;
}

export async function getInvoiceByNumber(number: string): Promise<Invoice | null> {
  const r = await db().selectFrom("invoices").selectAll().where("number", "=", number).executeTakeFirst();
  return r ? toInvoice(r) : null;
}

export async function invoicesOfEnquiry(enquiryId: string): Promise<Invoice[]> {
  const rows = await db().selectFrom("invoices").selectAll().where("enquiryId", "=", enquiryId).orderBy("issuedAt").orderBy("serial").execute();
  return rows.map(toInvoice);
}

/** Marks an issued invoice cancelled by a credit note (one conditional UPDATE: it can be cancelled once). */
export async function markInvoiceCancelled(id: string, creditNoteId: string): Promise<boolean> {
  const r = await db()
    .updateTable("invoices")
    .set({ status: "cancelled", cancelledById: creditNoteId })
    .where("id", "=", id)
    .where("status", "=", "issued")
    .where("kind", "!=", "credit_note")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export type InvoiceFilter = { page: number; limit: number; kind?: InvoiceKind; enquiryId?: string; fy?: string };

/** Newest first, paged. */
export async function listInvoices(filter: InvoiceFilter): Promise<{ data: Invoice[]; total: number }> {
  let q = db().selectFrom("invoices");
  if (filter.kind) q = q.where("kind", "=", filter.kind);
  if (filter.enquiryId) q = q.where("enquiryId", "=", filter.enquiryId);
  if (filter.fy) q = q.where("fy", "=", filter.fy);
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy("issuedAt", "desc")
    .orderBy("serial", "desc")
    .limit(filter.limit)
    .offset((filter.page - 1) * filter.limit)
    .execute();
  return { data: rows.map(toInvoice), total: Number(total.n) };
}

/** Every serial issued in a series and year, in order (tests and the consistency check). */
export async function serialsOf(series: NumberSeries, fy: string): Promise<number[]> {
  const rows = await db().selectFrom("invoices").select("serial").where("series", "=", series).where("fy", "=", fy).orderBy("serial").execute();
  return rows.map((r) => Number(r.serial));
}
