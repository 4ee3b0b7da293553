import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate, earlyBirdDiscount, scheduleDues, type PlanTerms } from "./fee-schedule";

const plan = (instalments: PlanTerms["instalments"], extra: Partial<PlanTerms> = {}): PlanTerms => ({
  instalments,
  depositPaise: 0,
  earlyBird: null,
  ...extra,
});

describe("a plan's schedule of dues", () => {
  it("40 % on enrolment, 30 % in week 4, 30 % in week 8 of the batch, after a seat deposit", () => {
    const dues = scheduleDues({
      pricePaise: 4_720_000,
      enrolledOn: "2026-06-01",
      batchStart: "2026-06-15",
      terms: plan(
        [
          { label: "First instalment", percentBp: 4000, dueFrom: "enrolment", dueDays: 0 },
          { label: "Week 4", percentBp: 3000, dueFrom: "batch_start", dueDays: 21 },
          { label: "Week 8", percentBp: 3000, dueFrom: "batch_start", dueDays: 49 },
        ],
        { depositPaise: 500_000 },
      ),
    });
    expect(dues).toEqual([
      { seq: 0, label: "Seat deposit", dueDate: "2026-06-01", amountPaise: 500_000 },
      { seq: 1, label: "First instalment", dueDate: "2026-06-01", amountPaise: 1_688_000 },
      { seq: 2, label: "Week 4", dueDate: "2026-07-06", amountPaise: 1_266_000 },
      { seq: 3, label: "Week 8", dueDate: "2026-08-03", amountPaise: 1_266_000 },
    ]);
  });

  it("gives the early-bird discount up to its date, never a due before the enrolment", () => {
    const terms = plan([{ label: "Before the batch", percentBp: 10_000, dueFrom: "batch_start", dueDays: -7 }], {
      earlyBird: { until: "2026-05-31", discountPaise: 300_000 },
    });
    expect(earlyBirdDiscount(4_720_000, "2026-05-31", terms.earlyBird)).toBe(300_000);
    expect(earlyBirdDiscount(4_720_000, "2026-06-01", terms.earlyBird)).toBe(0);
    const late = scheduleDues({ pricePaise: 4_720_000, enrolledOn: "2026-06-12", batchStart: "2026-06-15", terms });
    expect(late).toEqual([{ seq: 1, label: "Before the batch", dueDate: "2026-06-12", amountPaise: 4_720_000 }]);
  });

  it("over random plans, prices and discounts, the dues add up exactly to the price less the discount", () => {
    const instalment = fc.record({
      label: fc.constant("x"),
      dueFrom: fc.constantFrom("enrolment" as const, "batch_start" as const),
      dueDays: fc.integer({ min: -30, max: 200 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.array(instalment, { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        (price, weights, byPercent, slots, deposit, discount) => {
          // Percentages that add up to 100 %, or fixed amounts (the last takes the rest).
          const total = weights.reduce((s, w) => s + w, 0);
          let bpLeft = 10_000;
          const instalments = weights.map((w, i) => {
            const bp = i === weights.length - 1 ? bpLeft : Math.floor((w * 10_000) / total);
            bpLeft -= bp;
            return byPercent ? { ...slots[i], percentBp: bp } : { ...slots[i], amountPaise: w * 10_000 };
          });
          const dues = scheduleDues(
            { pricePaise: price, enrolledOn: "2026-06-01", batchStart: "2026-07-01", terms: plan(instalments, { depositPaise: deposit }) },
            discount,
          );
          expect(dues.reduce((s, d) => s + d.amountPaise, 0)).toBe(Math.max(0, price - discount));
          for (const d of dues) {
            expect(Number.isSafeInteger(d.amountPaise) && d.amountPaise > 0).toBe(true);
            expect(d.dueDate >= "2026-06-01").toBe(true);
          }
        },
      ),
    );
  });

  it("over random dues and payments, money settles the oldest dues first and the rest is credit, to the paisa", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ amountPaise: fc.integer({ min: 1, max: 10_000_000 }), day: fc.integer({ min: 1, max: 28 }), seq: fc.integer({ min: 0, max: 5 }) }),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        fc.array(fc.integer({ min: 1, max: 20_000_000 }), { maxLength: 10 }),
        (raw, payments) => {
          const dues = raw.map((d, i) => ({ id: `d${i}`, dueDate: `2026-06-${String(d.day).padStart(2, "0")}`, seq: d.seq, amountPaise: d.amountPaise }));
          const received = payments.reduce((s, p) => s + p, 0);
          const { paid, creditPaise } = allocate(dues, received);
          const billed = dues.reduce((s, d) => s + d.amountPaise, 0);
          const settled = [...paid.values()].reduce((s, p) => s + p, 0);
          expect(settled + creditPaise).toBe(received);
          expect(creditPaise).toBe(Math.max(0, received - billed));
          // Oldest first: a later due receives something only when every earlier one is paid in full.
          const order = [...dues].sort((a, b) => (a.dueDate === b.dueDate ? a.seq - b.seq : a.dueDate < b.dueDate ? -1 : 1));
          order.forEach((d, i) => {
            if ((paid.get(d.id) ?? 0) > 0) for (const e of order.slice(0, i)) expect(paid.get(e.id)).toBe(e.amountPaise);
          });
        },
      ),
    );
  });
});
