import type { Enquiry } from "~/models/enquiry.server";
import type { StaffActor } from "~/services/actor";
import { ledgerOf } from "~/services/fee-ledger.server";
import { enrolmentPlanChoices } from "~/services/fee-plans.server";
import { DEFAULT_STATE } from "~/schemas/fee-values";
import { siteToday } from "~/util/dates";

/** What the enquiry's details show of the student's money (app/components/admin/fee-ledger.tsx), without the form key. */
export async function feePanel(actor: StaffActor, enquiryId: string) {
  return { ledger: await ledgerOf(enquiryId), isAdmin: actor.user.role === "admin", today: siteToday() };
}

/** The plans Log activity offers for an enrolment of this enquiry, and the state its invoices start with. */
export async function enrolmentFeeChoices(enquiry: Pick<Enquiry, "scheduleId" | "preferredCourse">) {
  const { plans, defaultName } = await enrolmentPlanChoices(enquiry);
  return { plans: plans.map((p) => ({ id: p.id, name: p.name })), defaultPlan: `Default: ${defaultName}`, billingState: DEFAULT_STATE };
}

/** A PDF as a download (never rendered from our origin as a page), private to whoever may read it. */
export function pdfResponse(file: { fileName: string; body: Buffer }): Response {
  return new Response(new Uint8Array(file.body), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
