import { sql, type Selectable } from "kysely";
import { db, newest } from "~db/client.server";
import type { FeeAccountsTable, FeeConcessionsTable, FeeDuesTable, FeePlansTable } from "~db/schema";
import { newId, newTimeOrderedId, nowIso } from "~/util/ids";
import type { PlanTerms } from "~/util/fee-schedule";
import type { ConcessionKind, ConcessionStatus, DueStatus, FeeAccountStatus } from "~/schemas/fee-values";

/** Fee plans, fee accounts (one per enrolment), their dues and concessions (migration 0130). Amounts in paise. */

export type FeePlan = {
  id: string;
  name: string;
  courseId: string | null;
  scheduleId: string | null;
  isDefault: boolean;
  terms: PlanTerms;
  archived: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
};

export type FeeAccount = {
  id: string;
  enquiryId: string;
  scheduleId: string | null;
  courseTitle: string;
  planId: string | null;
  planName: string;
  listPricePaise: number;
  discountPaise: number;
  billingName: string;
  billingState: string;
  status: FeeAccountStatus;
  version: number;
  createdAt: string;
  updatedAt: string;
};

export type FeeDue = {
  id: string;
  accountId: string;
  enquiryId: string;
  seq: number;
  label: string;
  dueDate: string;
  amountPaise: number;
  paidPaise: number;
  status: DueStatus;
  paidAt: string | null;
  invoiceId: string | null;
  createdAt: string;
  updatedAt: string;
};

export type FeeConcession = {
  id: string;
  accountId: string;
  enquiryId: string;
  kind: ConcessionKind;
  amountPaise: number;
  reason: string;
  status: ConcessionStatus;
  requestedBy: string;
  requestedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
};

const toPlan = (r: Selectable<FeePlansTable>): FeePlan => ({
  ...r,
  isDefault: Boolean(Number(r.isDefault)),
  archived: Boolean(Number(r.archived)),
  version: Number(r.version),
  terms: JSON.parse(r.terms) as PlanTerms,
});
const toAccount = (r: Selectable<FeeAccountsTable>): FeeAccount => ({
  ...r,
  listPricePaise: Number(r.listPricePaise),
  discountPaise: Number(r.discountPaise),
  version: Number(r.version),
  status: r.status as FeeAccountStatus,
});
export const toDue = (r: Selectable<FeeDuesTable>): FeeDue => ({
  ...r,
  seq: Number(r.seq),
  amountPaise: Number(r.amountPaise),
  paidPaise: Number(r.paidPaise),
  status: r.status as DueStatus,
});
const toConcession = (r: Selectable<FeeConcessionsTable>): FeeConcession => ({
  ...r,
  amountPaise: Number(r.amountPaise),
  kind: r.kind as ConcessionKind,
  status: r.status as ConcessionStatus,
});

// ---------------------------------------------------------------- plans

export type FeePlanRow = { name: string; courseId: string | null; scheduleId: string | null; isDefault: boolean; terms: PlanTerms };

export async function insertFeePlan(input: FeePlanRow, updatedBy: string): Promise<FeePlan> {
  const now = nowIso();
  const row = {
    id: newId(),
    name: input.name,
    courseId: input.courseId,
    scheduleId: input.scheduleId,
    isDefault: input.isDefault ? 1 : 0,
    terms: JSON.stringify(input.terms),
    archived: 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
    updatedBy,
  };
  await db().insertInto("fee_plans").values(row).execute();
  return toPlan(row);
}

/** Writes a plan only if it still has `version` (one conditional UPDATE); null when it moved on (or is gone). */
export async function updateFeePlanRow(id: string, version: number, input: FeePlanRow, updatedBy: string): Promise<FeePlan | null> {
  const r = await db()
    .updateTable("fee_plans")
    .set({
      name: input.name,
      courseId: input.courseId,
      scheduleId: input.scheduleId,
      isDefault: input.isDefault ? 1 : 0,
      terms: JSON.stringify(input.terms),
      version: sql<number>`${sql.ref("version")} + 1`,
      updatedAt: nowIso(),
      updatedBy,
    })
    .where("id", "=", id)
    .where("version", "=", version)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) ? getFeePlan(id) : null;
}

export async function archiveFeePlan(id: string, updatedBy: string): Promise<boolean> {
  const r = await db()
    .updateTable("fee_plans")
    .set({ archived: 1, isDefault: 0, version: sql<number>`${sql.ref("version")} + 1`, updatedAt: nowIso(), updatedBy })
    .where("id", "=", id)
    .where("archived", "=", 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The other plans of the same course or batch stop being its default (one default each). */
export async function clearDefaultPlans(where: { courseId: string | null; scheduleId: string | null }, exceptId: string): Promise<void> {
  let q = db().updateTable("fee_plans").set({ isDefault: 0 }).where("id", "!=", exceptId).where("isDefault", "=", 1);
  q = where.scheduleId ? q.where("scheduleId", "=", where.scheduleId) : q.where("scheduleId", "is", null);
  q = where.courseId ? q.where("courseId", "=", where.courseId) : q.where("courseId", "is", null);
  await q.execute();
}

export async function getFeePlan(id: string): Promise<FeePlan | null> {
  const r = await db().selectFrom("fee_plans").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? toPlan(r) : null;
}

export async function listFeePlans({ includeArchived = false } = {}): Promise<FeePlan[]> {
  let q = db().selectFrom("fee_plans").selectAll().orderBy("name").orderBy("id").limit(500);
  if (!includeArchived) q = q.where("archived", "=", 0);
  return (await q.execute()).map(toPlan);
}

/** The default plan of a batch, else of its course (archived plans never). */
export async function defaultPlanFor(scheduleId: string | null, courseId: string | null): Promise<FeePlan | null> {
  if (scheduleId) {
    const r = await db()
      .selectFrom("fee_plans")
      .selectAll()
      .where("scheduleId", "=", scheduleId)
      .where("isDefault", "=", 1)
      .where("archived", "=", 0)
      .executeTakeFirst();
    if (r) return toPlan(r);
  }
  if (courseId) {
    const r = await db()
      .selectFrom("fee_plans")
      .selectAll()
      .where("courseId", "=", courseId)
      .where("scheduleId", "is", null)
      .where("isDefault", "=", 1)
      .where("archived", "=", 0)
      .executeTakeFirst();
    if (r) return toPlan(r);
  }
  return null;
}

// ---------------------------------------------------------------- accounts

export type FeeAccountRow = Omit<FeeAccount, "id" | "status" | "version" | "createdAt" | "updatedAt">;

export async function insertFeeAccount(input: FeeAccountRow): Promise<FeeAccount> {
  const now = nowIso();
  const row = { ...input, id: newId(), status: "active", version: 1, createdAt: now, updatedAt: now };
  await db().insertInto("fee_accounts").values(row).execute();
  return toAccount(row);
}

export async function getFeeAccount(id: string): Promise<FeeAccount | null> {
  const r = await db().selectFrom("fee_accounts").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? toAccount(r) : null;
}

/** The enquiry's accounts, newest first (one per enrolment; an ended one stays with its invoices and payments). */
export async function feeAccountsOfEnquiry(enquiryId: string): Promise<FeeAccount[]> {
  const rows = await db().selectFrom("fee_accounts").selectAll().where("enquiryId", "=", enquiryId).orderBy("createdAt", "desc").orderBy("id").execute();
  return rows.map(toAccount);
}

export async function activeFeeAccountOf(enquiryId: string): Promise<FeeAccount | null> {
  const r = await db()
    .selectFrom("fee_accounts")
    .selectAll()
    .where("enquiryId", "=", enquiryId)
    .where("status", "=", "active")
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  return r ? toAccount(r) : null;
}

/**
 * Takes the account's row lock for the rest of the transaction (one UPDATE of its version): two payments, a
 * reversal and an invoice run for one student on two instances queue up here and each sees the other's rows.
 */
export async function lockFeeAccount(id: string): Promise<FeeAccount | null> {
  const r = await db()
    .updateTable("fee_accounts")
    .set({ version: sql<number>`${sql.ref("version")} + 1`, updatedAt: nowIso() })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) ? getFeeAccount(id) : null;
}

export async function setFeeAccountFields(
  id: string,
  fields: Partial<Pick<FeeAccount, "status" | "billingState" | "billingName" | "scheduleId">>,
): Promise<void> {
  await db()
    .updateTable("fee_accounts")
    .set({ ...fields, updatedAt: nowIso() })
    .where("id", "=", id)
    .execute();
}

// ---------------------------------------------------------------- dues

export type DueRow = { seq: number; label: string; dueDate: string; amountPaise: number };

export async function insertDues(account: Pick<FeeAccount, "id" | "enquiryId">, dues: DueRow[]): Promise<void> {
  if (!dues.length) return;
  const now = nowIso();
  await db()
    .insertInto("fee_dues")
    .values(
      dues.map((d) => ({
        id: newTimeOrderedId(),
        accountId: account.id,
        enquiryId: account.enquiryId,
        ...d,
        paidPaise: 0,
        status: "open",
        createdAt: now,
        updatedAt: now,
      })),
    )
    .execute();
}

/** An account's dues in the order money settles them (date, then place). */
/** The account's dues; inside a transaction, the newest rows (newest(): call it holding lockFeeAccount). */
export async function duesOfAccount(accountId: string): Promise<FeeDue[]> {
  const rows = await newest(
    db().selectFrom("fee_dues").selectAll().where("accountId", "=", accountId).orderBy("dueDate").orderBy("seq").orderBy("id"),
  ).execute();
  return rows.map(toDue);
}

/** One due; inside a transaction, the newest row (newest(): read it holding lockFeeAccount, or first). */
export async function getDue(id: string): Promise<FeeDue | null> {
  const r = await newest(db().selectFrom("fee_dues").selectAll().where("id", "=", id)).executeTakeFirst();
  return r ? toDue(r) : null;
}

/** What payments settle, as derived (app/services/fee-ledger.server.ts): only rows whose values change are written. */
export async function setDueSettlement(id: string, values: { paidPaise: number; status: DueStatus; paidAt: string | null }): Promise<void> {
  await db()
    .updateTable("fee_dues")
    .set({ ...values, updatedAt: nowIso() })
    .where("id", "=", id)
    .execute();
}

export async function setDueAmount(id: string, amountPaise: number): Promise<void> {
  await db().updateTable("fee_dues").set({ amountPaise, updatedAt: nowIso() }).where("id", "=", id).where("invoiceId", "is", null).execute();
}

export async function cancelDue(id: string): Promise<void> {
  await db().updateTable("fee_dues").set({ status: "cancelled", updatedAt: nowIso() }).where("id", "=", id).execute();
}

export async function setDueInvoice(id: string, invoiceId: string | null): Promise<void> {
  await db().updateTable("fee_dues").set({ invoiceId, updatedAt: nowIso() }).where("id", "=", id).execute();
}

/** Open dues without an invoice whose date has come (the invoicing job), oldest first. */
export async function unbilledDuesDueBy(day: string, limit = 200): Promise<FeeDue[]> {
  const rows = await db()
    .selectFrom("fee_dues")
    .selectAll()
    .where("status", "in", ["open", "paid"])
    .where("invoiceId", "is", null)
    .where("dueDate", "<=", day)
    .orderBy("dueDate")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toDue);
}

/** Open dues with a date between two days, both included (reminders and the Fees screen). */
export async function openDuesBetween(from: string, to: string, limit = 2000): Promise<FeeDue[]> {
  const rows = await db()
    .selectFrom("fee_dues")
    .selectAll()
    .where("status", "=", "open")
    .where("dueDate", ">=", from)
    .where("dueDate", "<=", to)
    .orderBy("dueDate")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toDue);
}

// ---------------------------------------------------------------- concessions

export async function insertConcession(input: Omit<FeeConcession, "id" | "status" | "requestedAt" | "decidedBy" | "decidedAt">): Promise<FeeConcession> {
  const row = { ...input, id: newId(), status: "pending", requestedAt: nowIso(), decidedBy: null, decidedAt: null };
  await db().insertInto("fee_concessions").values(row).execute();
  return toConcession(row);
}

export async function getConcession(id: string): Promise<FeeConcession | null> {
  const r = await db().selectFrom("fee_concessions").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? toConcession(r) : null;
}

/** Decides a pending concession (one conditional UPDATE: of two admins deciding at once, one does). */
export async function decideConcession(id: string, status: "approved" | "rejected", decidedBy: string): Promise<boolean> {
  const r = await db()
    .updateTable("fee_concessions")
    .set({ status, decidedBy, decidedAt: nowIso() })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function concessionsOfAccount(accountId: string): Promise<FeeConcession[]> {
  const rows = await db().selectFrom("fee_concessions").selectAll().where("accountId", "=", accountId).orderBy("requestedAt").execute();
  return rows.map(toConcession);
}

// ---------------------------------------------------------------- the Fees screen

export type DueRowView = FeeDue & {
  courseTitle: string;
  scheduleId: string | null;
  billingName: string;
  phone: string;
  email: string;
  invoiceNumber: string | null;
};

export type DueListFilter = { from?: string; to?: string; scheduleId?: string; courseTitle?: string; page: number; limit: number };

function dueList(filter: Omit<DueListFilter, "page" | "limit">) {
  let q = db()
    .selectFrom("fee_dues as d")
    .innerJoin("fee_accounts as a", "a.id", "d.accountId")
    .leftJoin("enquiries as e", "e.id", "d.enquiryId")
    .leftJoin("invoices as i", "i.id", "d.invoiceId")
    .where("d.status", "=", "open")
    .where("a.status", "=", "active");
  if (filter.from) q = q.where("d.dueDate", ">=", filter.from);
  if (filter.to) q = q.where("d.dueDate", "<=", filter.to);
  if (filter.scheduleId) q = q.where("a.scheduleId", "=", filter.scheduleId);
  if (filter.courseTitle) q = q.where("a.courseTitle", "=", filter.courseTitle);
  return q;
}

/** Open dues of enrolled students, oldest date first, with who owes them and their invoice. */
export async function listOpenDueRows(filter: DueListFilter): Promise<{ data: DueRowView[]; total: number; sumLeftPaise: number }> {
  const totals = await dueList(filter)
    .select((eb) => [
      eb.fn.countAll<number>().as("n"),
      eb.fn.coalesce(eb.fn.sum<number>(sql<number>`${sql.ref("d.amountPaise")} - ${sql.ref("d.paidPaise")}`), eb.lit(0)).as("left"),
    ])
    .executeTakeFirstOrThrow();
  const rows = await dueList(filter)
    .selectAll("d")
    .select(["a.courseTitle", "a.scheduleId", "a.billingName", "e.phone", "e.email", "i.number as invoiceNumber"])
    .orderBy("d.dueDate")
    .orderBy("d.id")
    .limit(filter.limit)
    .offset((filter.page - 1) * filter.limit)
    .execute();
  return {
    data: rows.map((r) => ({
      ...toDue(r),
      courseTitle: r.courseTitle,
      scheduleId: r.scheduleId,
      billingName: r.billingName,
      phone: r.phone ?? "",
      email: r.email ?? "",
      invoiceNumber: r.invoiceNumber ?? null,
    })),
    total: Number(totals.n),
    sumLeftPaise: Number(totals.left),
  };
}

/** Every open due in the filter, a page at a time (the CSV). */
export async function* eachOpenDueRow(filter: Omit<DueListFilter, "page" | "limit">, pageSize = 500): AsyncGenerator<DueRowView[]> {
  for (let page = 1; ; page++) {
    const { data } = await listOpenDueRows({ ...filter, page, limit: pageSize });
    if (data.length) yield data;
    if (data.length < pageSize) return;
  }
}

/** What is left to pay on open dues up to a day (overdue: before today; outstanding: all). */
export async function sumLeftOnOpenDues(before?: string): Promise<number> {
  let q = db()
    .selectFrom("fee_dues as d")
    .innerJoin("fee_accounts as a", "a.id", "d.accountId")
    .where("d.status", "=", "open")
    .where("a.status", "=", "active");
  if (before) q = q.where("d.dueDate", "<", before);
  const r = await q
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(sql<number>`${sql.ref("d.amountPaise")} - ${sql.ref("d.paidPaise")}`), eb.lit(0)).as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The courses and batches with open dues (the screen's filters). */
export async function dueFilterChoices(): Promise<{ courses: string[]; batches: { id: string; courseName: string; startDate: string }[] }> {
  const courses = await db()
    .selectFrom("fee_accounts")
    .select("courseTitle")
    .where("status", "=", "active")
    .groupBy("courseTitle")
    .orderBy("courseTitle")
    .execute();
  const batches = await db()
    .selectFrom("fee_accounts as a")
    .innerJoin("schedules as s", "s.id", "a.scheduleId")
    .select(["s.id", "s.courseName", "s.startDate"])
    .where("a.status", "=", "active")
    .groupBy(["s.id", "s.courseName", "s.startDate"])
    .orderBy("s.startDate")
    .execute();
  return { courses: courses.map((c) => c.courseTitle), batches };
}

// ---------------------------------------------------------------- privacy

/**
 * An erased student's fee records: the accounts end and their unbilled, unpaid dues are cancelled (nothing more is
 * billed or reminded). Their invoices and payments stay (tax records, app/services/fee-privacy.server.ts).
 */
export async function endAccountsOfEnquiries(enquiryIds: string[]): Promise<string[]> {
  if (!enquiryIds.length) return [];
  const accounts = await db().selectFrom("fee_accounts").select("id").where("enquiryId", "in", enquiryIds).execute();
  const ids = accounts.map((a) => a.id);
  if (!ids.length) return [];
  await db().updateTable("fee_accounts").set({ status: "ended", updatedAt: nowIso() }).where("id", "in", ids).execute();
  await db()
    .updateTable("fee_dues")
    .set({ status: "cancelled", updatedAt: nowIso() })
    .where("accountId", "in", ids)
    .where("status", "=", "open")
    .where("invoiceId", "is", null)
    .where("paidPaise", "=", 0)
    .execute();
  return ids;
}
