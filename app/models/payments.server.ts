import type { Selectable } from "kysely";
import { db, newest } from "~db/client.server";
import type { GatewayOrdersTable, PaymentsTable, RefundsTable, UpiReportsTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import type { GatewayOrderStatus, PaymentMethod, PaymentStatus, UpiReportStatus } from "~/schemas/fee-values";

/**
 * Payments, refunds, UPI reports and Razorpay orders and events (migration 0130). Amounts in paise. The reads that
 * decide what money was received (an account's payments and refunds, a gateway payment or event seen before, a UPI
 * report's state) read the newest rows inside a transaction (db/client.server.ts newest): the caller holds the
 * account's lock (lockFeeAccount), so on MariaDB they see what the previous holder committed, not the snapshot.
 */

export type Payment = Omit<Selectable<PaymentsTable>, "method" | "status"> & { method: PaymentMethod; status: PaymentStatus };
export type Refund = Selectable<RefundsTable>;
export type UpiReport = Omit<Selectable<UpiReportsTable>, "status"> & { status: UpiReportStatus };
export type GatewayOrder = Omit<Selectable<GatewayOrdersTable>, "status"> & { status: GatewayOrderStatus };

const toPayment = (r: Selectable<PaymentsTable>): Payment => ({
  ...r,
  method: r.method as PaymentMethod,
  status: r.status as PaymentStatus,
  amountPaise: Number(r.amountPaise),
  serial: Number(r.serial),
});
const toRefund = (r: Selectable<RefundsTable>): Refund => ({ ...r, amountPaise: Number(r.amountPaise) });
const toReport = (r: Selectable<UpiReportsTable>): UpiReport => ({ ...r, status: r.status as UpiReportStatus, amountPaise: Number(r.amountPaise) });
const toOrder = (r: Selectable<GatewayOrdersTable>): GatewayOrder => ({ ...r, status: r.status as GatewayOrderStatus, amountPaise: Number(r.amountPaise) });

// ---------------------------------------------------------------- payments

export type PaymentRow = Omit<Payment, "id" | "status" | "createdAt" | "reversedAt" | "reversedBy" | "reversalReason">;

export async function insertPayment(input: PaymentRow): Promise<Payment> {
  const row = { ...input, id: newId(), status: "recorded" as const, createdAt: nowIso(), reversedAt: null, reversedBy: null, reversalReason: null };
  await db().insertInto("payments").values(row).execute();
  return row;
}

export async function getPayment(id: string): Promise<Payment | null> {
  const r = await db().selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? toPayment(r) : null;
}

export async function getPaymentByGatewayId(gatewayPaymentId: string): Promise<Payment | null> {
  const r = await newest(db().selectFrom("payments").selectAll().where("gatewayPaymentId", "=", gatewayPaymentId)).executeTakeFirst();
  return r ? toPayment(r) : null;
}

export async function paymentsOfAccount(accountId: string): Promise<Payment[]> {
  const rows = await newest(db().selectFrom("payments").selectAll().where("accountId", "=", accountId).orderBy("createdAt").orderBy("id")).execute();
  return rows.map(toPayment);
}

export async function paymentsOfEnquiry(enquiryId: string): Promise<Payment[]> {
  const rows = await db().selectFrom("payments").selectAll().where("enquiryId", "=", enquiryId).orderBy("createdAt").orderBy("id").execute();
  return rows.map(toPayment);
}

/** Reverses a recorded payment (one conditional UPDATE: once). */
export async function markPaymentReversed(id: string, reason: string, by: string): Promise<boolean> {
  const r = await db()
    .updateTable("payments")
    .set({ status: "reversed", reversedAt: nowIso(), reversedBy: by, reversalReason: reason })
    .where("id", "=", id)
    .where("status", "=", "recorded")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export type PaymentFilter = { page: number; limit: number; enquiryId?: string; method?: PaymentMethod; from?: string; to?: string };

export async function listPayments(filter: PaymentFilter): Promise<{ data: Payment[]; total: number }> {
  let q = db().selectFrom("payments");
  if (filter.enquiryId) q = q.where("enquiryId", "=", filter.enquiryId);
  if (filter.method) q = q.where("method", "=", filter.method);
  if (filter.from) q = q.where("receivedOn", ">=", filter.from);
  if (filter.to) q = q.where("receivedOn", "<=", filter.to);
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit)
    .offset((filter.page - 1) * filter.limit)
    .execute();
  return { data: rows.map(toPayment), total: Number(total.n) };
}

/** Money received (not reversed) on days from `from` to `to`, both included, less refunds made in that window. */
export async function sumReceivedBetween(from: string, to: string): Promise<number> {
  const r = await db()
    .selectFrom("payments")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amountPaise"), eb.lit(0)).as("n"))
    .where("status", "=", "recorded")
    .where("receivedOn", ">=", from)
    .where("receivedOn", "<=", to)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// ---------------------------------------------------------------- refunds

export async function insertRefund(input: Omit<Refund, "id" | "createdAt">): Promise<Refund> {
  const row = { ...input, id: newId(), createdAt: nowIso() };
  await db().insertInto("refunds").values(row).execute();
  return row;
}

export async function refundsOfAccount(accountId: string): Promise<Refund[]> {
  const rows = await newest(db().selectFrom("refunds").selectAll().where("accountId", "=", accountId).orderBy("createdAt")).execute();
  return rows.map(toRefund);
}

export async function refundsOfPayment(paymentId: string): Promise<Refund[]> {
  const rows = await newest(db().selectFrom("refunds").selectAll().where("paymentId", "=", paymentId).orderBy("createdAt")).execute();
  return rows.map(toRefund);
}

export async function listRefunds(filter: { page: number; limit: number }): Promise<{ data: Refund[]; total: number }> {
  const total = await db()
    .selectFrom("refunds")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const rows = await db()
    .selectFrom("refunds")
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit)
    .offset((filter.page - 1) * filter.limit)
    .execute();
  return { data: rows.map(toRefund), total: Number(total.n) };
}

// ---------------------------------------------------------------- UPI reports

export async function insertUpiReport(input: Pick<UpiReport, "dueId" | "accountId" | "enquiryId" | "utr" | "amountPaise">): Promise<UpiReport> {
  const row = { ...input, id: newId(), status: "pending" as const, reportedAt: nowIso(), decidedAt: null, decidedBy: null, paymentId: null };
  await db().insertInto("upi_reports").values(row).execute();
  return row;
}

export async function getUpiReport(id: string): Promise<UpiReport | null> {
  const r = await newest(db().selectFrom("upi_reports").selectAll().where("id", "=", id)).executeTakeFirst();
  return r ? toReport(r) : null;
}

export async function upiReportsOfEnquiry(enquiryId: string): Promise<UpiReport[]> {
  const rows = await db().selectFrom("upi_reports").selectAll().where("enquiryId", "=", enquiryId).orderBy("reportedAt").execute();
  return rows.map(toReport);
}

export async function pendingUpiReports(limit = 200): Promise<UpiReport[]> {
  const rows = await db().selectFrom("upi_reports").selectAll().where("status", "=", "pending").orderBy("reportedAt").limit(limit).execute();
  return rows.map(toReport);
}

/** Decides a pending report once (a conditional UPDATE). */
export async function decideUpiReport(id: string, status: "confirmed" | "rejected", by: string, paymentId: string | null): Promise<boolean> {
  const r = await db()
    .updateTable("upi_reports")
    .set({ status, decidedAt: nowIso(), decidedBy: by, paymentId })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The payment a confirmed report became (written in the same transaction as the decision). */
export async function setUpiReportPayment(id: string, paymentId: string): Promise<void> {
  await db().updateTable("upi_reports").set({ paymentId }).where("id", "=", id).execute();
}

// ---------------------------------------------------------------- Razorpay orders and events

export async function insertGatewayOrder(
  input: Pick<GatewayOrder, "dueId" | "accountId" | "enquiryId" | "orderId" | "amountPaise" | "receipt">,
): Promise<GatewayOrder> {
  const now = nowIso();
  const row = { ...input, id: newId(), linkId: null, linkUrl: null, status: "created" as const, createdAt: now, updatedAt: now };
  await db().insertInto("gateway_orders").values(row).execute();
  return row;
}

export async function setGatewayOrderLink(id: string, linkId: string, linkUrl: string): Promise<void> {
  await db().updateTable("gateway_orders").set({ linkId, linkUrl, updatedAt: nowIso() }).where("id", "=", id).execute();
}

export async function getGatewayOrderByOrderId(orderId: string): Promise<GatewayOrder | null> {
  const r = await db().selectFrom("gateway_orders").selectAll().where("orderId", "=", orderId).executeTakeFirst();
  return r ? toOrder(r) : null;
}

export async function getGatewayOrderById(id: string): Promise<GatewayOrder | null> {
  const r = await db().selectFrom("gateway_orders").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? toOrder(r) : null;
}

export async function getGatewayOrderByLinkId(linkId: string): Promise<GatewayOrder | null> {
  const r = await db().selectFrom("gateway_orders").selectAll().where("linkId", "=", linkId).executeTakeFirst();
  return r ? toOrder(r) : null;
}

/** The open order of a due for this amount, if any (a second Pay click reuses it). */
export async function openGatewayOrderOfDue(dueId: string, amountPaise: number): Promise<GatewayOrder | null> {
  const r = await db()
    .selectFrom("gateway_orders")
    .selectAll()
    .where("dueId", "=", dueId)
    .where("status", "=", "created")
    .where("amountPaise", "=", amountPaise)
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  return r ? toOrder(r) : null;
}

export async function setGatewayOrderStatus(id: string, status: GatewayOrderStatus): Promise<void> {
  await db().updateTable("gateway_orders").set({ status, updatedAt: nowIso() }).where("id", "=", id).execute();
}

/** Orders still open that were created before `before` (the reconciliation job). */
export async function staleGatewayOrders(before: string, limit = 100): Promise<GatewayOrder[]> {
  const rows = await db()
    .selectFrom("gateway_orders")
    .selectAll()
    .where("status", "=", "created")
    .where("createdAt", "<", before)
    .orderBy("createdAt")
    .limit(limit)
    .execute();
  return rows.map(toOrder);
}

/**
 * Records a webhook event id; false when it was seen before. Inside the event's transaction, so an event whose
 * handling fails (and rolls back) is handled again at its retry.
 */
export async function claimGatewayEvent(eventId: string, type: string): Promise<boolean> {
  const existing = await newest(db().selectFrom("gateway_events").select("eventId").where("eventId", "=", eventId)).executeTakeFirst();
  if (existing) return false;
  await db().insertInto("gateway_events").values({ eventId, type, receivedAt: nowIso() }).execute();
  return true;
}

// ---------------------------------------------------------------- privacy

/**
 * An erased student's payments keep what a receipt and the books must show (number, name, amount, method, day,
 * reference) and lose the rest (the note); their UPI reports not turned into payments are deleted.
 */
export async function scrubPaymentsOfEnquiries(enquiryIds: string[]): Promise<void> {
  if (!enquiryIds.length) return;
  await db().updateTable("payments").set({ note: "" }).where("enquiryId", "in", enquiryIds).execute();
  await db().deleteFrom("upi_reports").where("enquiryId", "in", enquiryIds).where("paymentId", "is", null).execute();
}

/** Past the retention period: the names on invoices and payments of financial years up to `lastFy` are removed. */
export async function anonymiseFeeRecordsUpTo(lastFy: string, placeholder: string): Promise<number> {
  const inv = await db()
    .updateTable("invoices")
    .set({ buyerName: placeholder })
    .where("fy", "<=", lastFy)
    .where("buyerName", "!=", placeholder)
    .executeTakeFirst();
  const pay = await db()
    .updateTable("payments")
    .set({ payerName: placeholder, reference: "" })
    .where("fy", "<=", lastFy)
    .where("payerName", "!=", placeholder)
    .executeTakeFirst();
  await db()
    .updateTable("fee_accounts")
    .set({ billingName: placeholder })
    .where("status", "=", "ended")
    .where("billingName", "!=", placeholder)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom("invoices").select("invoices.id").whereRef("invoices.accountId", "=", "fee_accounts.id").where("invoices.fy", ">", lastFy)),
      ),
    )
    .execute();
  return Number(inv.numUpdatedRows) + Number(pay.numUpdatedRows);
}
