/**
 * A fee plan's terms turned into a student's schedule of dues (pure: the services store the result). Amounts are
 * paise; the sum of the dues is exactly the price less the discount, whatever the percentages (the last instalment
 * takes what rounding left).
 */

export type DueFrom = "enrolment" | "batch_start";

/** One instalment of a plan: a share of the fee (per cent in basis points, or a fixed amount) due some days after a moment. */
export type PlanInstalment = { label: string; percentBp?: number | null; amountPaise?: number | null; dueFrom: DueFrom; dueDays: number };

export type PlanTerms = {
  instalments: PlanInstalment[];
  /** A seat deposit due on enrolment, part of the fee (0: none). */
  depositPaise: number;
  /** Early-bird: a discount (amount or per cent) for an enrolment on or before `until` (YYYY-MM-DD). */
  earlyBird: { until: string; discountPaise?: number | null; discountBp?: number | null } | null;
};

export type ScheduledDue = { seq: number; label: string; dueDate: string; amountPaise: number };

export type ScheduleInput = {
  /** The price before any discount, as the student pays it (GST included). */
  pricePaise: number;
  /** The Hyderabad day of the enrolment, and the batch's first day (null: no batch; "batch start" then means enrolment). */
  enrolledOn: string;
  batchStart: string | null;
  terms: PlanTerms;
};

/** A calendar day moved by whole days (days are calendar dates, never instants: no time zone is involved). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The early-bird discount an enrolment on `enrolledOn` gets (0 after the date), at most the price. */
export function earlyBirdDiscount(pricePaise: number, enrolledOn: string, earlyBird: PlanTerms["earlyBird"]): number {
  if (!earlyBird || enrolledOn > earlyBird.until) return 0;
  const d = earlyBird.discountPaise ?? Math.floor((pricePaise * (earlyBird.discountBp ?? 0)) / 10_000);
  return Math.max(0, Math.min(pricePaise, d));
}

/**
 * The dues, in the order they are paid (date, then their place in the plan): the deposit first, then each instalment.
 * Percentages are of what is left after the deposit; fixed amounts are taken as they are, and the last instalment is
 * always "the rest". A due never falls before the enrolment (a plan's "7 days before the batch starts" for a late
 * enrolment is due on the day). Dues of nothing are left out.
 */
export function scheduleDues({ pricePaise, enrolledOn, batchStart, terms }: ScheduleInput, discountPaise = 0): ScheduledDue[] {
  const net = Math.max(0, pricePaise - discountPaise);
  const due = (from: DueFrom, days: number) => {
    const base = from === "batch_start" && batchStart ? batchStart : enrolledOn;
    const day = addDays(base, days);
    return day < enrolledOn ? enrolledOn : day;
  };
  const out: ScheduledDue[] = [];
  const deposit = Math.min(net, Math.max(0, terms.depositPaise));
  if (deposit > 0) out.push({ seq: 0, label: "Seat deposit", dueDate: enrolledOn, amountPaise: deposit });
  let left = net - deposit;
  const rest = left;
  terms.instalments.forEach((inst, i) => {
    const last = i === terms.instalments.length - 1;
    let amount: number;
    if (last) amount = left;
    else if (inst.percentBp !== null && inst.percentBp !== undefined) amount = Math.floor((rest * inst.percentBp) / 10_000);
    else amount = inst.amountPaise ?? 0;
    amount = Math.max(0, Math.min(left, amount));
    left -= amount;
    out.push({ seq: i + 1, label: inst.label, dueDate: due(inst.dueFrom, inst.dueDays), amountPaise: amount });
  });
  return out.filter((d) => d.amountPaise > 0).sort((a, b) => (a.dueDate === b.dueDate ? a.seq - b.seq : a.dueDate < b.dueDate ? -1 : 1));
}

/** Full payment on enrolment: the plan used when staff defined none for the batch or its course. */
export const FULL_PAYMENT_TERMS: PlanTerms = {
  instalments: [{ label: "Full fee", percentBp: 10_000, dueFrom: "enrolment", dueDays: 0 }],
  depositPaise: 0,
  earlyBird: null,
};

/**
 * How payments settle dues: the money received (payments less refunds, reversed ones not counted) goes to the dues
 * oldest first (by due date, then their place); what is left after the last due is credit, which the next due
 * created takes. Returns what each due has received, in the dues' own order, and the credit.
 */
export function allocate<D extends { id: string; dueDate: string; seq: number; amountPaise: number }>(
  dues: D[],
  receivedPaise: number,
): { paid: Map<string, number>; creditPaise: number } {
  const ordered = [...dues].sort((a, b) => (a.dueDate === b.dueDate ? a.seq - b.seq : a.dueDate < b.dueDate ? -1 : 1));
  let left = Math.max(0, receivedPaise);
  const paid = new Map<string, number>();
  for (const d of ordered) {
    const take = Math.min(d.amountPaise, left);
    paid.set(d.id, take);
    left -= take;
  }
  return { paid, creditPaise: left };
}
