import * as z from "zod/mini";
import { preprocess } from "./fields";

/**
 * Fees (issue 27, item 4): a course's fee in whole rupees with whether GST is included, and a batch's optional
 * override (an early-bird price) with a short label. Both optional: a course without one shows FEE_ON_REQUEST,
 * never ₹0, so 0 is refused.
 */
export const FEE_MAX = 10_000_000;
export const FEE_MESSAGE = "Fee must be a whole number of rupees, at least 1 (or leave it empty)";

/** "45000", "45,000", "₹ 45,000" or 45000; "" and null clear it; undefined is "not sent". */
export const optionalFee = preprocess(
  (v) => {
    if (v === "" || v === null) return null;
    if (typeof v === "string") {
      const s = v.replace(/[₹,\s]/g, "").replace(/^rs\.?/i, "");
      if (s === "") return null;
      return /^\d+$/.test(s) ? Number(s) : v;
    }
    return v;
  },
  z.optional(
    z.nullable(
      z
        .int({ error: FEE_MESSAGE })
        .check(z.minimum(1, FEE_MESSAGE), z.maximum(FEE_MAX, `Fee must be at most ${FEE_MAX}`), z.describe("Whole rupees (INR); null: fee on request")),
    ),
  ),
);

export const feeLabelField = preprocess(
  (v) => (typeof v === "string" ? v.trim() : v === null || v === undefined ? "" : v),
  z._default(
    z
      .string({ error: "Fee label must be text" })
      .check(z.maxLength(60, "Fee label must be at most 60 characters"), z.describe('What the batch price is, e.g. "Early-bird"; "" for none')),
    "",
  ),
);
