import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/db";
import { insertEnquiry } from "~/models/enquiry.server";
import {
  closeOffer,
  firstWaiting,
  insertOffer,
  insertWaitlistEntry,
  listOpenOffersExpiringBetween,
  listWaitlist,
  moveEntry,
  positionOf,
} from "~/models/waitlist.server";

useTestDatabase();

const enquiry = (fullName: string) =>
  insertEnquiry({
    fullName,
    email: `${fullName.toLowerCase()}@example.com`,
    phone: "9876543210",
    preferredCourse: "SOC",
    preferredMode: "online",
    message: "",
    whatsappNotifications: true,
    filePaths: [],
    scheduleId: "b1",
  });

describe("waitlist rows (migration 0013)", () => {
  it("keeps the order of joining, offers to the first waiting, and lists open offers by expiry for the digest", async () => {
    const a = await enquiry("Asha");
    const b = await enquiry("Bala");
    const ea = await insertWaitlistEntry("b1", a.id, "2026-01-01T10:00:00.000Z");
    const eb = await insertWaitlistEntry("b1", b.id, "2026-01-01T10:00:00.000Z");
    expect((await listWaitlist("b1")).map((l) => l.fullName)).toEqual(["Asha", "Bala"]);
    expect(await positionOf(eb)).toBe(2);
    expect((await firstWaiting("b1"))?.id).toBe(ea.id);

    expect(await moveEntry(ea.id, ["waiting"], "offered")).toBe(true);
    expect(await moveEntry(ea.id, ["waiting"], "offered")).toBe(false);
    const offer = await insertOffer({ ...ea, status: "offered" }, { id: "offer-1", tokenHash: "a".repeat(64), expiresAt: "2026-01-03T10:00:00.000Z" });
    expect((await firstWaiting("b1"))?.id).toBe(eb.id);

    expect(await listOpenOffersExpiringBetween("2026-01-03T00:00:00.000Z", "2026-01-04T00:00:00.000Z")).toEqual([
      { offerId: offer.id, enquiryId: a.id, fullName: "Asha", scheduleId: "b1", expiresAt: "2026-01-03T10:00:00.000Z", assigneeId: null },
    ]);
    expect(await listOpenOffersExpiringBetween("2026-01-04T00:00:00.000Z", "2026-01-05T00:00:00.000Z")).toEqual([]);

    expect(await closeOffer(offer.id, "accepted", { notExpiredAt: "2026-01-03T10:00:00.000Z" })).toBe(false);
    expect(await closeOffer(offer.id, "accepted", { notExpiredAt: "2026-01-02T10:00:00.000Z" })).toBe(true);
    expect(await closeOffer(offer.id, "expired")).toBe(false);
    expect(await listOpenOffersExpiringBetween("2026-01-03T00:00:00.000Z", "2026-01-04T00:00:00.000Z")).toEqual([]);
  });
});
