import { describe, expect, it } from "vitest";
import { newTimeOrderedId } from "./ids";

describe("newTimeOrderedId", () => {
  it("is a UUIDv7 whose text order follows time, so new rows go at the end of the primary key", () => {
    const a = newTimeOrderedId(Date.parse("2026-03-01T00:00:00Z"));
    const b = newTimeOrderedId(Date.parse("2026-03-01T00:00:00.001Z"));
    const c = newTimeOrderedId(Date.parse("2031-01-01T00:00:00Z"));
    for (const id of [a, b, c]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([c, a, b].sort()).toEqual([a, b, c]);
    expect(a.replace(/-/g, "").slice(0, 12)).toBe(Date.parse("2026-03-01T00:00:00Z").toString(16).padStart(12, "0"));
  });

  it("increases strictly within one millisecond and when the clock goes back", () => {
    const at = Date.parse("2032-01-01T00:00:00Z");
    const ids = [...Array.from({ length: 5000 }, () => newTimeOrderedId(at)), newTimeOrderedId(at - 10)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
