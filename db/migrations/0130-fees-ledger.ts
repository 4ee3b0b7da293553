import { type Kysely } from "kysely";

/**
 * Fees from enrolment to receipt (issue 38; app/services/fee-*.server.ts, invoices, payments). Money is whole paise
 * (bigint) everywhere (docs/decisions/009).
 * - `fee_plans`: how a course's or batch's fee is paid (instalments as JSON terms), one default per course or batch.
 * - `fee_accounts`: one per enrolment: the price, plan and discount it was enrolled on, the billing name and state.
 * - `fee_dues`: the schedule of dues copied from the plan at enrolment (a later plan change never rewrites them);
 *   `paidPaise` and `status` are derived from the account's payments, oldest due first, in each paying transaction.
 * - `number_series`: one counter row per series and financial year ("invoice:2026-27"), moved by one conditional
 *   UPDATE inside the issuing transaction: serials without gaps or duplicates on every instance.
 * - `invoices`: tax invoices, invoices without tax lines, and credit notes: never edited or deleted, each with what
 *   it must show copied in at issue (names, states, GSTIN, SAC, amounts).
 * - `payments`, `refunds`: money in and back; a payment is reversed, never edited. A gateway's payment, refund and
 *   event ids are unique keys, so a webhook delivered twice records once.
 * - `upi_reports` ("I have paid" with a UTR), `fee_concessions` (a scholarship awaiting an admin), `gateway_orders`
 *   (a Razorpay order per due), `gateway_events` (webhook event ids seen), `fee_reminders` (one row per due and stage).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = "varchar(24)";
  const id = "varchar(36)";
  await db.schema
    .createTable("fee_plans")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("courseId", id)
    .addColumn("scheduleId", id)
    .addColumn("isDefault", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("terms", "text", (c) => c.notNull())
    .addColumn("archived", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("createdAt", ts, (c) => c.notNull())
    .addColumn("updatedAt", ts, (c) => c.notNull())
    .addColumn("updatedBy", "varchar(254)")
    .execute();
  await db.schema.createIndex("fee_plans_course").on("fee_plans").columns(["courseId", "isDefault"]).execute();
  await db.schema.createIndex("fee_plans_schedule").on("fee_plans").columns(["scheduleId", "isDefault"]).execute();

  await db.schema
    .createTable("fee_accounts")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("enquiryId", id, (c) => c.notNull())
    .addColumn("scheduleId", id)
    .addColumn("courseTitle", "varchar(200)", (c) => c.notNull())
    .addColumn("planId", id)
    .addColumn("planName", "varchar(100)", (c) => c.notNull())
    .addColumn("listPricePaise", "bigint", (c) => c.notNull())
    .addColumn("discountPaise", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("billingName", "varchar(200)", (c) => c.notNull())
    .addColumn("billingState", "varchar(60)", (c) => c.notNull())
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("createdAt", ts, (c) => c.notNull())
    .addColumn("updatedAt", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("fee_accounts_enquiry").on("fee_accounts").columns(["enquiryId", "status"]).execute();
  await db.schema.createIndex("fee_accounts_schedule").on("fee_accounts").columns(["scheduleId", "status"]).execute();

  await db.schema
    .createTable("fee_dues")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("accountId", id, (c) => c.notNull())
    .addColumn("enquiryId", id, (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("label", "varchar(60)", (c) => c.notNull())
    .addColumn("dueDate", "varchar(10)", (c) => c.notNull())
    .addColumn("amountPaise", "bigint", (c) => c.notNull())
    .addColumn("paidPaise", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("paidAt", ts)
    .addColumn("invoiceId", id)
    .addColumn("createdAt", ts, (c) => c.notNull())
    .addColumn("updatedAt", ts, (c) => c.notNull())
    .execute();
  // The Fees screen, the invoicing and reminder jobs: open dues by date.
  await db.schema.createIndex("fee_dues_status_date").on("fee_dues").columns(["status", "dueDate"]).execute();
  await db.schema.createIndex("fee_dues_account").on("fee_dues").columns(["accountId", "dueDate", "seq"]).execute();
  await db.schema.createIndex("fee_dues_enquiry").on("fee_dues").column("enquiryId").execute();

  await db.schema
    .createTable("number_series")
    .addColumn("id", "varchar(40)", (c) => c.primaryKey())
    .addColumn("lastSerial", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("invoices")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("kind", "varchar(20)", (c) => c.notNull())
    .addColumn("series", "varchar(20)", (c) => c.notNull())
    .addColumn("fy", "varchar(7)", (c) => c.notNull())
    .addColumn("serial", "integer", (c) => c.notNull())
    .addColumn("number", "varchar(40)", (c) => c.notNull().unique())
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("dueId", id)
    .addColumn("accountId", id, (c) => c.notNull())
    .addColumn("enquiryId", id, (c) => c.notNull())
    .addColumn("issuedAt", ts, (c) => c.notNull())
    .addColumn("issuedOn", "varchar(10)", (c) => c.notNull())
    .addColumn("sellerName", "varchar(150)", (c) => c.notNull())
    .addColumn("sellerAddress", "varchar(300)", (c) => c.notNull())
    .addColumn("sellerGstin", "varchar(15)", (c) => c.notNull())
    .addColumn("sellerState", "varchar(60)", (c) => c.notNull())
    .addColumn("buyerName", "varchar(200)", (c) => c.notNull())
    .addColumn("buyerState", "varchar(60)", (c) => c.notNull())
    .addColumn("sac", "varchar(6)", (c) => c.notNull())
    .addColumn("description", "varchar(300)", (c) => c.notNull())
    .addColumn("taxablePaise", "bigint", (c) => c.notNull())
    .addColumn("cgstBp", "integer", (c) => c.notNull())
    .addColumn("cgstPaise", "bigint", (c) => c.notNull())
    .addColumn("sgstBp", "integer", (c) => c.notNull())
    .addColumn("sgstPaise", "bigint", (c) => c.notNull())
    .addColumn("igstBp", "integer", (c) => c.notNull())
    .addColumn("igstPaise", "bigint", (c) => c.notNull())
    .addColumn("totalPaise", "bigint", (c) => c.notNull())
    .addColumn("amountWords", "varchar(300)", (c) => c.notNull())
    .addColumn("refInvoiceId", id)
    .addColumn("cancelledById", id)
    .addColumn("reason", "varchar(300)")
    .addColumn("createdBy", "varchar(254)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("invoices_series_serial").on("invoices").columns(["series", "fy", "serial"]).unique().execute();
  await db.schema.createIndex("invoices_enquiry").on("invoices").columns(["enquiryId", "issuedAt"]).execute();
  await db.schema.createIndex("invoices_due").on("invoices").column("dueId").execute();

  await db.schema
    .createTable("payments")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("number", "varchar(40)", (c) => c.notNull().unique())
    .addColumn("fy", "varchar(7)", (c) => c.notNull())
    .addColumn("serial", "integer", (c) => c.notNull())
    .addColumn("accountId", id, (c) => c.notNull())
    .addColumn("enquiryId", id, (c) => c.notNull())
    .addColumn("method", "varchar(20)", (c) => c.notNull())
    .addColumn("reference", "varchar(100)", (c) => c.notNull())
    .addColumn("amountPaise", "bigint", (c) => c.notNull())
    .addColumn("receivedOn", "varchar(10)", (c) => c.notNull())
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("note", "varchar(500)", (c) => c.notNull())
    .addColumn("gatewayPaymentId", "varchar(64)", (c) => c.unique())
    .addColumn("payerName", "varchar(200)", (c) => c.notNull())
    .addColumn("recordedBy", "varchar(254)", (c) => c.notNull())
    .addColumn("createdAt", ts, (c) => c.notNull())
    .addColumn("reversedAt", ts)
    .addColumn("reversedBy", "varchar(254)")
    .addColumn("reversalReason", "varchar(300)")
    .execute();
  await db.schema.createIndex("payments_account").on("payments").columns(["accountId", "createdAt"]).execute();
  await db.schema.createIndex("payments_enquiry").on("payments").column("enquiryId").execute();
  await db.schema.createIndex("payments_received").on("payments").columns(["status", "receivedOn"]).execute();

  await db.schema
    .createTable("refunds")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("paymentId", id, (c) => c.notNull())
    .addColumn("accountId", id, (c) => c.notNull())
    .addColumn("amountPaise", "bigint", (c) => c.notNull())
    .addColumn("reason", "varchar(300)", (c) => c.notNull())
    .addColumn("gatewayRefundId", "varchar(64)", (c) => c.unique())
    .addColumn("createdAt", ts, (c) => c.notNull())
    .addColumn("createdBy", "varchar(254)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("refunds_payment").on("refunds").column("paymentId").execute();
  await db.schema.createIndex("refunds_account").on("refunds").column("accountId").execute();

  await db.schema
    .createTable("upi_reports")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("dueId", id, (c) => c.notNull())
    .addColumn("accountId", id, (c) => c.notNull())
    .addColumn("enquiryId", id, (c) => c.notNull())
    .addColumn("utr", "varchar(12)", (c) => c.notNull().unique())
    .addColumn("amountPaise", "bigint", (c) => c.notNull())
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("reportedAt", ts, (c) => c.notNull())
    .addColumn("decidedAt", ts)
    .addColumn("decidedBy", "varchar(254)")
    .addColumn("paymentId", id)
    .execute();
  await db.schema.createIndex("upi_reports_status").on("upi_reports").columns(["status", "reportedAt"]).execute();
  await db.schema.createIndex("upi_reports_enquiry").on("upi_reports").column("enquiryId").execute();

  await db.schema
    .createTable("fee_concessions")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("accountId", id, (c) => c.notNull())
    .addColumn("enquiryId", id, (c) => c.notNull())
    .addColumn("kind", "varchar(20)", (c) => c.notNull())
    .addColumn("amountPaise", "bigint", (c) => c.notNull())
    .addColumn("reason", "varchar(300)", (c) => c.notNull())
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("requestedBy", "varchar(254)", (c) => c.notNull())
    .addColumn("requestedAt", ts, (c) => c.notNull())
    .addColumn("decidedBy", "varchar(254)")
    .addColumn("decidedAt", ts)
    .execute();
  await db.schema.createIndex("fee_concessions_account").on("fee_concessions").columns(["accountId", "status"]).execute();

  await db.schema
    .createTable("gateway_orders")
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("dueId", id, (c) => c.notNull())
    .addColumn("accountId", id, (c) => c.notNull())
    .addColumn("enquiryId", id, (c) => c.notNull())
    .addColumn("orderId", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("linkId", "varchar(64)", (c) => c.unique())
    .addColumn("linkUrl", "varchar(500)")
    .addColumn("amountPaise", "bigint", (c) => c.notNull())
    .addColumn("receipt", "varchar(40)", (c) => c.notNull())
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("createdAt", ts, (c) => c.notNull())
    .addColumn("updatedAt", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("gateway_orders_status").on("gateway_orders").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("gateway_orders_due").on("gateway_orders").columns(["dueId", "status"]).execute();

  await db.schema
    .createTable("gateway_events")
    .addColumn("eventId", "varchar(100)", (c) => c.primaryKey())
    .addColumn("type", "varchar(60)", (c) => c.notNull())
    .addColumn("receivedAt", ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("fee_reminders")
    .addColumn("key", "varchar(60)", (c) => c.primaryKey())
    .addColumn("dueId", id, (c) => c.notNull())
    .addColumn("stage", "varchar(20)", (c) => c.notNull())
    .addColumn("createdAt", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("fee_reminders_due").on("fee_reminders").column("dueId").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "fee_reminders",
    "gateway_events",
    "gateway_orders",
    "fee_concessions",
    "upi_reports",
    "refunds",
    "payments",
    "invoices",
    "number_series",
    "fee_dues",
    "fee_accounts",
    "fee_plans",
  ])
    await db.schema.dropTable(table).execute();
}
