import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amountInWords, financialYear, formatPaise, numberInIndianWords, paiseToDecimal, parseRupeesToPaise, splitGst } from "./money";

const RATES = { cgstBp: 900, sgstBp: 900, igstBp: 1800 };

describe("money in paise", () => {
  it("reads amounts as Indians write them, in the Indian system, with lakh and crore", () => {
    expect(amountInWords(4_720_000)).toBe("Rupees Forty-Seven Thousand Two Hundred only");
    expect(amountInWords(4_720_050)).toBe("Rupees Forty-Seven Thousand Two Hundred and Fifty Paise only");
    expect(amountInWords(1_234_567_801)).toBe("Rupees One Crore Twenty-Three Lakh Forty-Five Thousand Six Hundred Seventy-Eight and One Paise only");
    expect(numberInIndianWords(100_000)).toBe("One Lakh");
    expect(numberInIndianWords(1_000_000_000)).toBe("One Hundred Crore");
    expect(numberInIndianWords(115)).toBe("One Hundred Fifteen");
    expect(amountInWords(0)).toBe("Rupees Zero only");
  });

  it("prints ₹ amounts in Indian grouping with two decimals, and UPI's plain decimals", () => {
    expect(formatPaise(4_720_000)).toBe("₹47,200.00");
    expect(formatPaise(1_234_567_805)).toBe("₹1,23,45,678.05");
    expect(paiseToDecimal(4_720_005)).toBe("47200.05");
    expect(parseRupeesToPaise("₹ 47,200.5")).toBe(4_720_050);
    expect(parseRupeesToPaise("12.345")).toBeNull();
  });

  it("dates the financial year April to March by the day in Hyderabad", () => {
    expect(financialYear(new Date("2026-03-31T18:29:59Z"))).toBe("2025-26"); // 23:59 IST on 31 March
    expect(financialYear(new Date("2026-03-31T18:30:00Z"))).toBe("2026-27"); // 00:00 IST on 1 April
    expect(financialYear(new Date("2099-12-31T00:00:00Z"))).toBe("2099-00");
  });

  it("splits GST inside a total exactly: taxable plus taxes is the total, CGST and SGST within a paisa", () => {
    expect(splitGst(4_720_000, RATES, "intra")).toMatchObject({ taxablePaise: 4_000_000, cgstPaise: 360_000, sgstPaise: 360_000, igstPaise: 0 });
    expect(splitGst(4_720_000, RATES, "inter")).toMatchObject({ taxablePaise: 4_000_000, cgstPaise: 0, sgstPaise: 0, igstPaise: 720_000 });
    expect(splitGst(4_720_000, RATES, "none")).toMatchObject({ taxablePaise: 4_720_000, cgstPaise: 0, igstPaise: 0 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.constantFrom("intra" as const, "inter" as const), (total, where) => {
        const s = splitGst(total, RATES, where);
        expect(s.taxablePaise + s.cgstPaise + s.sgstPaise + s.igstPaise).toBe(total);
        expect(s.sgstPaise - s.cgstPaise).toBeGreaterThanOrEqual(0);
        expect(s.sgstPaise - s.cgstPaise).toBeLessThanOrEqual(1);
        // The taxable value is the nearest paisa to total / 1.18.
        expect(Math.abs(s.taxablePaise * 1.18 - total)).toBeLessThanOrEqual(0.6);
      }),
    );
  });
});
