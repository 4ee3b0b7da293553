import { inTransaction } from "~db/client.server";
import { getCourse, getCourseByTitle } from "~/models/course.server";
import { getEnquiry, type Enquiry } from "~/models/enquiry.server";
import {
  activeFeeAccountOf,
  cancelDue,
  concessionsOfAccount,
  decideConcession,
  defaultPlanFor,
  duesOfAccount,
  feeAccountsOfEnquiry,
  getConcession,
  getFeeAccount,
  getFeePlan,
  insertConcession,
  insertDues,
  insertFeeAccount,
  lockFeeAccount,
  setDueAmount,
  setDueSettlement,
  setFeeAccountFields,
  type FeeAccount,
  type FeeConcession,
  type FeeDue,
} from "~/models/fees.server";
import { invoicesOfEnquiry, type Invoice } from "~/models/invoices.server";
import {
  paymentsOfAccount,
  paymentsOfEnquiry,
  refundsOfAccount,
  upiReportsOfEnquiry,
  type Payment,
  type Refund,
  type UpiReport,
} from "~/models/payments.server";
import { getSchedule } from "~/models/schedule.server";
import { insertTimelineEntry } from "~/models/timeline.server";
import { concessionSchema, enrolmentFeeSchema } from "~/schemas/fees";
import { CONCESSION_KIND_LABELS, DEFAULT_STATE, type DueState } from "~/schemas/fee-values";
import { siteToday } from "~/util/dates";
import { batchFee, courseFee } from "~/util/fee";
import { allocate, earlyBirdDiscount, FULL_PAYMENT_TERMS, scheduleDues } from "~/util/fee-schedule";
import { formatPaise, gstOnTop, rupeesToPaise } from "~/util/money";
import { requireAdmin, type StaffActor } from "./actor";
import { record } from "./audit.server";
import { feeSettings, taxPlace, totalRateBp } from "./fee-settings.server";
import { issueInvoiceForDue } from "./invoices.server";
import { conflict, invalid, notFound } from "./service-error";
import { parseInput } from "./validation";

/**
 * A student's fees (issue 38): the account opened when they are enrolled, its schedule of dues copied from a plan,
 * and how the money received settles those dues. Every enrolment path (the desk's buttons and Log activity, the
 * bulk action, the API, a waitlist acceptance) goes through applyChange in enquiries.server.ts, which calls
 * openFeeAccount / endFeeAccount here in its own transaction.
 *
 * Settlement is derived, never typed: the money received (payments not reversed, less refunds) goes to the dues
 * oldest first, and what is left is credit that the next due takes. settleAccount recomputes it from the rows in
 * every transaction that moves money (holding the account's lock), so the stored paidPaise of each due is always
 * what the rows say, and a reversal simply recomputes.
 */

export const NO_FEE_ACCOUNT = "This student has no fee account: enrol them in a batch (or the course) first.";
export const PLAN_NOT_FOR_COURSE = "This fee plan is for another course or batch";

/** A plan, its price and the price's GST, chosen for an enrolment. */
async function priceAndPlan(enquiry: Enquiry, planId: string | null | undefined, billingState: string) {
  const batch = enquiry.scheduleId ? await getSchedule(enquiry.scheduleId) : null;
  const course = batch ? await getCourse(batch.course) : await getCourseByTitle(enquiry.preferredCourse);
  const fee = batch ? batchFee(batch) : course ? courseFee(course) : null;
  let plan = planId ? await getFeePlan(planId) : await defaultPlanFor(batch?.id ?? null, course?.id ?? null);
  if (planId && (!plan || plan.archived)) throw invalid({ feePlanId: "Choose a fee plan" });
  if (plan && ((plan.courseId && plan.courseId !== course?.id) || (plan.scheduleId && plan.scheduleId !== batch?.id))) {
    throw invalid({ feePlanId: PLAN_NOT_FOR_COURSE });
  }
  if (plan?.archived) plan = null;
  const settings = await feeSettings();
  let pricePaise = fee ? rupeesToPaise(fee.amount) : 0;
  // A fee "+ GST" is what the institute keeps; the student pays it with the tax on top (when it charges GST).
  if (fee && !fee.includesGst) pricePaise += gstOnTop(pricePaise, totalRateBp(settings, taxPlace(settings, billingState)));
  return { batch, course, plan, pricePaise };
}

/**
 * The enquiry has just become Enrolled (inside applyChange's transaction): opens its fee account with the dues of
 * the chosen plan (`feePlanId`), else the batch's default plan, else the course's, else full payment on enrolment;
 * the price is the batch's own fee, else the course's (whole rupees, read into paise here). An account already open
 * (enrolled again into another batch) is kept: what was billed stays as it was.
 */
export async function openFeeAccount(
  actor: StaffActor,
  enquiry: Enquiry,
  choice: { feePlanId?: string | null; billingState?: string } = {},
): Promise<FeeAccount> {
  const open = await activeFeeAccountOf(enquiry.id);
  if (open) {
    if (open.scheduleId !== enquiry.scheduleId) await setFeeAccountFields(open.id, { scheduleId: enquiry.scheduleId });
    return open;
  }
  const billingState = choice.billingState ?? DEFAULT_STATE;
  const { batch, course, plan, pricePaise } = await priceAndPlan(enquiry, choice.feePlanId, billingState);
  const terms = plan?.terms ?? FULL_PAYMENT_TERMS;
  const enrolledOn = siteToday();
  const discountPaise = earlyBirdDiscount(pricePaise, enrolledOn, terms.earlyBird);
  const account = await insertFeeAccount({
    enquiryId: enquiry.id,
    scheduleId: batch?.id ?? null,
    courseTitle: batch?.courseName ?? course?.title ?? enquiry.preferredCourse,
    planId: plan?.id ?? null,
    planName: plan?.name ?? "Full payment on enrolment",
    listPricePaise: pricePaise,
    discountPaise,
    billingName: enquiry.fullName,
    billingState,
  });
  const dues = scheduleDues({ pricePaise, enrolledOn, batchStart: batch?.startDate ?? null, terms }, discountPaise);
  await insertDues(account, dues);
  // What falls due on the day of enrolment is invoiced at once; the rest when it falls due (or money reaches it).
  for (const due of await duesOfAccount(account.id)) if (due.dueDate <= enrolledOn) await issueInvoiceForDue(due, account, actor.user.name);
  const total = dues.reduce((s, d) => s + d.amountPaise, 0);
  const text = pricePaise
    ? `Fee schedule: ${dues.length} due${dues.length === 1 ? "" : "s"}, ${formatPaise(total)} (${account.planName}${discountPaise ? `, early-bird ${formatPaise(discountPaise)} off` : ""})`
    : "Fee account opened: the course has no fee set (fee on request), so no dues";
  await insertTimelineEntry("enquiry", enquiry.id, { userId: actor.user.id, userName: actor.user.name, kind: "fee", fromValue: null, toValue: null, text });
  await record(actor, "create", "payment", account.id, `${enquiry.fullName}: ${text}`);
  return account;
}

/**
 * The enquiry has just left Enrolled: its account ends, and its dues not yet invoiced or paid are cancelled (an
 * invoiced one stays until staff cancel it with a credit note; money received stays as credit on the account).
 */
export async function endFeeAccount(actor: StaffActor, enquiry: Enquiry): Promise<void> {
  const open = await activeFeeAccountOf(enquiry.id);
  if (!open) return;
  await lockFeeAccount(open.id);
  let cancelled = 0;
  for (const due of await duesOfAccount(open.id)) {
    if (due.status === "open" && !due.invoiceId && due.paidPaise === 0) {
      await cancelDue(due.id);
      cancelled++;
    }
  }
  await setFeeAccountFields(open.id, { status: "ended" });
  await settleAccount(open.id, actor.user.name);
  if (cancelled) {
    await insertTimelineEntry("enquiry", enquiry.id, {
      userId: actor.user.id,
      userName: actor.user.name,
      kind: "fee",
      fromValue: null,
      toValue: null,
      text: `No longer enrolled: ${cancelled} unbilled due${cancelled === 1 ? "" : "s"} cancelled`,
    });
  }
}

/** What the choice of plan and state at enrolment says (the desk's form, the API), checked. */
export function readEnrolmentFeeChoice(input: unknown): { feePlanId?: string | null; billingState?: string } {
  return parseInput(enrolmentFeeSchema, input);
}

export type Settlement = { creditPaise: number; newlyPaid: FeeDue[]; invoiced: Invoice[] };

/**
 * Recomputes what the account's money settles (inside a transaction that holds its lock) and writes each due whose
 * share changed; a due that money reaches for the first time gets its invoice now (if it had none).
 */
export async function settleAccount(accountId: string, by: string): Promise<Settlement> {
  const account = await getFeeAccount(accountId);
  if (!account) throw notFound("Fee account");
  const dues = (await duesOfAccount(accountId)).filter((d) => d.status !== "cancelled");
  const received = receivedOf(await paymentsOfAccount(accountId), await refundsOfAccount(accountId));
  const { paid, creditPaise } = allocate(dues, received);
  const now = new Date().toISOString();
  const newlyPaid: FeeDue[] = [];
  const invoiced: Invoice[] = [];
  for (const due of dues) {
    const paidPaise = paid.get(due.id) ?? 0;
    const status = paidPaise >= due.amountPaise ? "paid" : "open";
    if (paidPaise !== due.paidPaise || status !== due.status) {
      await setDueSettlement(due.id, { paidPaise, status, paidAt: status === "paid" ? (due.paidAt ?? now) : null });
      if (status === "paid" && due.status !== "paid") newlyPaid.push({ ...due, paidPaise, status });
    }
    if (paidPaise > 0 && !due.invoiceId) invoiced.push(await issueInvoiceForDue(due, account, by));
  }
  return { creditPaise, newlyPaid, invoiced };
}

/** Money received on an account: payments not reversed, less refunds. */
export function receivedOf(payments: Pick<Payment, "status" | "amountPaise">[], refunds: Pick<Refund, "amountPaise">[]): number {
  return payments.filter((p) => p.status === "recorded").reduce((s, p) => s + p.amountPaise, 0) - refunds.reduce((s, r) => s + r.amountPaise, 0);
}

// ---------------------------------------------------------------- reading

export type DueLine = FeeDue & { state: DueState; outstandingPaise: number; invoiceNumber: string | null; courseTitle: string };

/** A due as people read it today: paid, part paid, overdue, due today, upcoming or cancelled. */
export function dueState(due: Pick<FeeDue, "status" | "paidPaise" | "amountPaise" | "dueDate">, today = siteToday()): DueState {
  if (due.status === "cancelled") return "cancelled";
  if (due.status === "paid" || due.paidPaise >= due.amountPaise) return "paid";
  if (due.dueDate < today) return "overdue";
  if (due.paidPaise > 0) return "part-paid";
  return due.dueDate === today ? "due" : "upcoming";
}

export type Ledger = {
  /** The open account, else the newest. */
  account: FeeAccount | null;
  accounts: FeeAccount[];
  dues: DueLine[];
  invoices: Invoice[];
  payments: Payment[];
  upiReports: UpiReport[];
  concessions: FeeConcession[];
  totals: { billedPaise: number; receivedPaise: number; outstandingPaise: number; creditPaise: number; overduePaise: number };
};

/** Everything about one student's money, for the enquiry's details, /me and the API. */
export async function ledgerOf(enquiryId: string, today = siteToday()): Promise<Ledger> {
  const accounts = await feeAccountsOfEnquiry(enquiryId);
  const account = accounts.find((a) => a.status === "active") ?? accounts[0] ?? null;
  const invoices = await invoicesOfEnquiry(enquiryId);
  const numbers = new Map(invoices.map((i) => [i.id, i.number]));
  const dues: DueLine[] = [];
  const concessions: FeeConcession[] = [];
  let refunds: Refund[] = [];
  for (const a of accounts) {
    for (const d of await duesOfAccount(a.id)) {
      dues.push({
        ...d,
        state: dueState(d, today),
        outstandingPaise: d.status === "cancelled" ? 0 : d.amountPaise - d.paidPaise,
        invoiceNumber: d.invoiceId ? (numbers.get(d.invoiceId) ?? null) : null,
        courseTitle: a.courseTitle,
      });
    }
    concessions.push(...(await concessionsOfAccount(a.id)));
    refunds = refunds.concat(await refundsOfAccount(a.id));
  }
  const payments = await paymentsOfEnquiry(enquiryId);
  const live = dues.filter((d) => d.status !== "cancelled");
  const billedPaise = live.reduce((s, d) => s + d.amountPaise, 0);
  const receivedPaise = receivedOf(payments, refunds);
  const paidToDues = live.reduce((s, d) => s + d.paidPaise, 0);
  return {
    account,
    accounts,
    dues,
    invoices,
    payments,
    upiReports: await upiReportsOfEnquiry(enquiryId),
    concessions,
    totals: {
      billedPaise,
      receivedPaise,
      outstandingPaise: billedPaise - paidToDues,
      creditPaise: receivedPaise - paidToDues,
      overduePaise: live.filter((d) => d.state === "overdue").reduce((s, d) => s + d.outstandingPaise, 0),
    },
  };
}

// ---------------------------------------------------------------- concessions

/**
 * A scholarship or concession, asked for by staff with a reason; nothing changes until an admin approves it
 * (approveConcession). Approved, it lowers the dues not yet invoiced or paid, the latest first.
 */
export async function requestConcession(actor: StaffActor, enquiryId: string, input: unknown): Promise<FeeConcession> {
  const values = parseInput(concessionSchema, input);
  return inTransaction(async () => {
    if (!(await getEnquiry(enquiryId))) throw notFound("Enquiry");
    const account = await activeFeeAccountOf(enquiryId);
    if (!account) throw invalid({ amountPaise: NO_FEE_ACCOUNT }, NO_FEE_ACCOUNT);
    const concession = await insertConcession({ accountId: account.id, enquiryId, ...values, requestedBy: actor.user.name });
    await record(
      actor,
      "create",
      "payment",
      concession.id,
      `${CONCESSION_KIND_LABELS[values.kind]} of ${formatPaise(values.amountPaise)} asked for ${account.billingName}: ${values.reason}`,
    );
    await insertTimelineEntry("enquiry", enquiryId, {
      userId: actor.user.id,
      userName: actor.user.name,
      kind: "fee",
      fromValue: null,
      toValue: null,
      text: `${CONCESSION_KIND_LABELS[values.kind]} of ${formatPaise(values.amountPaise)} asked for (awaiting an admin): ${values.reason}`,
    });
    return concession;
  });
}

export const CONCESSION_TOO_LARGE = "The concession is more than the dues not yet invoiced or paid: lower it, or cancel an invoice first.";

export async function decideConcessionRequest(actor: StaffActor, concessionId: string, approve: boolean): Promise<FeeConcession> {
  requireAdmin(actor);
  return inTransaction(async () => {
    const concession = await getConcession(concessionId);
    if (!concession) throw notFound("Concession");
    const account = await lockFeeAccount(concession.accountId);
    if (!account) throw notFound("Concession");
    if (!(await decideConcession(concession.id, approve ? "approved" : "rejected", actor.user.name)))
      throw conflict("This concession was already decided.", {}, "already_decided");
    const label = CONCESSION_KIND_LABELS[concession.kind];
    if (approve) {
      let left = concession.amountPaise;
      const reducible = (await duesOfAccount(account.id)).filter((d) => d.status === "open" && !d.invoiceId && d.paidPaise === 0).reverse();
      for (const due of reducible) {
        if (!left) break;
        const cut = Math.min(left, due.amountPaise);
        left -= cut;
        if (cut === due.amountPaise) await cancelDue(due.id);
        else await setDueAmount(due.id, due.amountPaise - cut);
      }
      if (left > 0) throw invalid({ amountPaise: CONCESSION_TOO_LARGE }, CONCESSION_TOO_LARGE);
      await settleAccount(account.id, actor.user.name);
    }
    const text = `${label} of ${formatPaise(concession.amountPaise)} ${approve ? "approved" : "rejected"} by ${actor.user.name}`;
    await record(actor, "update", "payment", concession.id, `${account.billingName}: ${text}`);
    await insertTimelineEntry("enquiry", concession.enquiryId, {
      userId: actor.user.id,
      userName: actor.user.name,
      kind: "fee",
      fromValue: null,
      toValue: null,
      text,
    });
    return (await getConcession(concession.id))!;
  });
}

/** Staff correct the student's state (place of supply) for invoices not yet issued. */
export async function setBillingState(actor: StaffActor, enquiryId: string, input: unknown): Promise<FeeAccount> {
  const { billingState } = parseInput(enrolmentFeeSchema, input);
  if (!billingState) throw invalid({ billingState: "Choose the student's state" });
  const found = await activeFeeAccountOf(enquiryId);
  if (!found) throw invalid({ billingState: NO_FEE_ACCOUNT }, NO_FEE_ACCOUNT);
  return inTransaction(async () => {
    // The account's lock: an invoice being issued at this moment is issued with one state or the other, whole.
    const account = (await lockFeeAccount(found.id))!;
    if (account.billingState === billingState) return account;
    await setFeeAccountFields(account.id, { billingState });
    await record(actor, "update", "payment", account.id, `${account.billingName}: state for invoices ${account.billingState} → ${billingState}`);
    return (await getFeeAccount(account.id))!;
  });
}

/** GET /api/enquiries/:id/fees: the ledger of an enquiry that exists (404 otherwise). */
export async function feeLedgerForStaff(enquiryId: string): Promise<Ledger> {
  if (!(await getEnquiry(enquiryId))) throw notFound("Enquiry");
  return ledgerOf(enquiryId);
}
