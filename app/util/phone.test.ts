import { describe, expect, it } from "vitest";
import { isPhoneOnlyTerm, phoneSearchDigits } from "./phone";

describe("phone search terms", () => {
  it("reads a phone's digits however it is typed, the last ten of a longer one", () => {
    expect(phoneSearchDigits("+91 93930 03000")).toBe("9393003000");
    expect(phoneSearchDigits("(90000) 00005")).toBe("9000000005");
    expect(phoneSearchDigits("3210")).toBe("3210");
    expect(phoneSearchDigits("12")).toBe("");
    expect(phoneSearchDigits("Priya 98765")).toBe("");
  });

  it("takes a term as a phone alone when no e-mail or name could hold it", () => {
    for (const term of ["+91 93930 03000", "+919393003000", "(90000) 00005", "000 0000 5", " 93930 03000 "]) expect(isPhoneOnlyTerm(term), term).toBe(true);
    // Digits alone or with dashes and dots may be part of an e-mail ("ravi.98765@…") or a name: looked for everywhere.
    for (const term of ["9393003000", "93930-03000", "98.765", "Kiran 93930", "ravi+91@x.in", "+9", ""]) expect(isPhoneOnlyTerm(term), term).toBe(false);
  });
});
