import { beforeAll, describe, expect, it } from "vitest";
import { insertCourse } from "~/models/course.server";
import { insertEnquiry } from "~/models/enquiry.server";
import { getUserWithSecret } from "~/models/user.server";
import { action as paymentsAction } from "~/routes/api.enquiries.$id.payments";
import { action as refundsAction } from "~/routes/api.payments.$id.refunds";
import { action as creditNoteAction } from "~/routes/api.invoices.$id.credit-note";
import type { StaffActor } from "~/services/actor";
import { logActivity } from "~/services/enquiries.server";
import { ledgerOf } from "~/services/fee-ledger.server";
import { createUserWithoutActor } from "~/services/users.server";
import { issueToken } from "~/web/token.server";
import { useTestDatabase } from "../helpers/db";
import { run } from "./admin-route-helpers";

/**
 * Amounts through the API are integer paise: a string, a fraction, zero, a negative or an absurd number is refused
 * with a message and records nothing; refunds stop at what was paid; an editor's token cannot issue a credit note.
 */
useTestDatabase();

let admin: StaffActor;
let editorToken = "";
let enquiryId = "";
beforeAll(async () => {
  const u = await createUserWithoutActor({ name: "Amount Admin", email: "amount@staff.test", password: "long-enough-password", role: "admin" });
  admin = { user: { id: u.id, name: u.name, email: u.email, role: u.role }, ip: "127.0.0.1", requestId: "test" };
  const ed = await createUserWithoutActor({ name: "Amount Editor", email: "amount.editor@staff.test", password: "long-enough-password", role: "editor" });
  editorToken = await issueToken((await getUserWithSecret({ id: ed.id }))!);
  await insertCourse({ title: "SOC Analyst Training Program", category: "beginner", description: "SOC", fee: 47_200, feeIncludesGst: true });
  const e = await insertEnquiry({
    fullName: "Amit Kumar",
    email: "amit@example.com",
    phone: "9876500011",
    preferredCourse: "SOC Analyst Training Program",
    preferredMode: "online",
  });
  await logActivity(admin, e.id, { status: "enrolled", followUp: "keep" });
  enquiryId = e.id;
});

const post = (fn: (args: never) => unknown, path: string, body: unknown, params: Record<string, string>) =>
  run(
    fn,
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${editorToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    params,
  );

describe("amounts through the API", () => {
  it("refuses a string, a fraction, zero, a negative or a huge amount of paise, recording nothing", async () => {
    for (const amountPaise of ["4720000", 100.5, 0, -100, 1e15, "1e3", null]) {
      const out = await post(paymentsAction, `/api/enquiries/${enquiryId}/payments`, { method: "cash", amountPaise }, { id: enquiryId });
      expect(out.status, String(amountPaise)).toBe(400);
    }
    expect((await ledgerOf(enquiryId)).payments).toEqual([]);
  });

  it("records integer paise exactly; a refund beyond what is left is refused; an editor cannot issue a credit note", async () => {
    const out = await post(paymentsAction, `/api/enquiries/${enquiryId}/payments`, { method: "cash", amountPaise: 100_001 }, { id: enquiryId });
    expect(out.status).toBe(201);
    const ledger = await ledgerOf(enquiryId);
    expect(ledger.totals).toMatchObject({ receivedPaise: 100_001, outstandingPaise: 4_720_000 - 100_001 });
    const [payment] = ledger.payments;
    const tooMuch = await post(refundsAction, `/api/payments/${payment.id}/refunds`, { amountPaise: 100_002, reason: "x" }, { id: payment.id });
    expect(tooMuch.status).toBe(400);
    const [invoice] = ledger.invoices;
    const cn = await post(creditNoteAction, `/api/invoices/${invoice.id}/credit-note`, { reason: "Wrong name" }, { id: invoice.id });
    expect(cn.status).toBe(403);
    expect((await ledgerOf(enquiryId)).invoices.map((i) => i.status)).toEqual(["issued"]);
  });
});
