import { describe, expect, it } from "vitest";
import { inputValue } from "./input-value";

describe("inputValue", () => {
  it("keeps a real day in a date field and drops anything else, as a browser does", () => {
    for (const day of ["2027-01-05", "2028-02-29", "2000-02-29", "12345-12-31"]) expect(inputValue("date", day), day).toBe(day);
    for (const bad of ["2026-02-30", "2100-02-29", "2026-13-01", "0000-01-01", "2026-1-5", "soon", " 2027-01-05", "2027-01-05T00:00"])
      expect(inputValue("date", bad), bad).toBe("");
  });

  it("keeps a number in a number field and drops text", () => {
    for (const n of ["0", "20", "-3", "2.5", ".5", "1e3", "1E-2"]) expect(inputValue("number", n), n).toBe(n);
    for (const bad of ["many", "+3", "3.", "1,000", " 3", "Infinity", "1e999", "0x10"]) expect(inputValue("number", bad), bad).toBe("");
  });

  it("leaves other fields, empty values and non-strings as they are", () => {
    expect(inputValue("text", "2026-02-30")).toBe("2026-02-30");
    expect(inputValue(undefined, "many")).toBe("many");
    expect(inputValue("email", "not-an-email")).toBe("not-an-email");
    expect(inputValue("date", "")).toBe("");
    expect(inputValue("number", 20)).toBe(20);
    expect(inputValue("date", undefined)).toBeUndefined();
  });
});
