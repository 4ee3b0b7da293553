import { z } from "zod";
import {
  CONCESSION_KINDS,
  CONCESSION_STATUSES,
  DUE_FROM,
  DUE_STATES,
  DUE_STATUSES,
  FEE_ACCOUNT_STATUSES,
  INVOICE_KINDS,
  INVOICE_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  UPI_REPORT_STATUSES,
} from "~/schemas/fee-values";
import { concessionDecisionSchema, concessionSchema, creditNoteSchema, feePlanSchema, paymentSchema, refundSchema, reversalSchema } from "~/schemas/fees";

/**
 * The fee records and bodies of the OpenAPI document (issue 38): every amount is an integer number of paise (₹1 =
 * 100), every day a Hyderabad calendar day (YYYY-MM-DD), every instant UTC. Bodies are the schemas that check them.
 */

const text = z.string();
const paise = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description}, in paise (₹1 = 100)` });
const day = text.meta({ format: "date" });
const instant = text.meta({ format: "date-time" });
const id = text;

export const FeePlan = z
  .object({
    id,
    name: text,
    courseId: id.nullable(),
    scheduleId: id.nullable(),
    isDefault: z.boolean(),
    archived: z.boolean(),
    version: z.number().int(),
    terms: z.object({
      instalments: z.array(
        z.object({
          label: text,
          percentBp: z.number().int().nullable().optional(),
          amountPaise: z.number().int().nullable().optional(),
          dueFrom: z.enum(DUE_FROM),
          dueDays: z.number().int(),
        }),
      ),
      depositPaise: paise("Seat deposit, due on enrolment (0: none)"),
      earlyBird: z.object({ until: day, discountPaise: z.number().int().nullable().optional(), discountBp: z.number().int().nullable().optional() }).nullable(),
    }),
    createdAt: instant,
    updatedAt: instant,
    updatedBy: text.nullable(),
  })
  .meta({ id: "FeePlan" });

export const FeeAccount = z.object({
  id,
  enquiryId: id,
  scheduleId: id.nullable(),
  courseTitle: text,
  planId: id.nullable(),
  planName: text,
  listPricePaise: paise("The price enrolled at, GST included"),
  discountPaise: paise("Early-bird discount"),
  billingName: text,
  billingState: text.meta({ description: "The student's state: the place of supply on invoices" }),
  status: z.enum(FEE_ACCOUNT_STATUSES),
  version: z.number().int(),
  createdAt: instant,
  updatedAt: instant,
});

const dueFields = {
  id,
  accountId: id,
  enquiryId: id,
  seq: z.number().int(),
  label: text,
  dueDate: day,
  amountPaise: paise("What the due asks"),
  paidPaise: paise("What payments settled of it"),
  status: z.enum(DUE_STATUSES),
  paidAt: instant.nullable(),
  invoiceId: id.nullable(),
  createdAt: instant,
  updatedAt: instant,
};

export const Due = z
  .object({
    ...dueFields,
    state: z.enum(DUE_STATES),
    outstandingPaise: paise("Left to pay"),
    invoiceNumber: text.nullable(),
    courseTitle: text,
  })
  .meta({ id: "Due" });

export const DueRow = z
  .object({
    ...dueFields,
    state: z.enum(DUE_STATES),
    leftPaise: paise("Left to pay"),
    daysOverdue: z.number().int().min(0),
    courseTitle: text,
    scheduleId: id.nullable(),
    billingName: text,
    phone: text,
    email: text,
    invoiceNumber: text.nullable(),
  })
  .meta({ id: "DueRow" });

export const Invoice = z
  .object({
    id,
    kind: z.enum(INVOICE_KINDS),
    series: text,
    fy: text.meta({ description: "Financial year (April to March), such as 2026-27" }),
    serial: z.number().int().min(1),
    number: text.meta({ description: "<prefix>/<financial year>/<serial>; credit notes CN<serial>" }),
    status: z.enum(INVOICE_STATUSES),
    dueId: id.nullable(),
    accountId: id,
    enquiryId: id,
    issuedAt: instant,
    issuedOn: day,
    sellerName: text,
    sellerAddress: text,
    sellerGstin: text.meta({ description: "Empty when the institute is not registered for GST" }),
    sellerState: text,
    buyerName: text,
    buyerState: text.meta({ description: "Place of supply" }),
    sac: text,
    description: text,
    taxablePaise: paise("Taxable value"),
    cgstBp: z.number().int().meta({ description: "CGST rate in basis points (900 = 9 %)" }),
    cgstPaise: paise("CGST"),
    sgstBp: z.number().int(),
    sgstPaise: paise("SGST"),
    igstBp: z.number().int(),
    igstPaise: paise("IGST"),
    totalPaise: paise("Total: taxable value + CGST + SGST + IGST, exactly"),
    amountWords: text,
    refInvoiceId: id.nullable().meta({ description: "A credit note: the invoice it cancels" }),
    cancelledById: id.nullable().meta({ description: "An invoice: the credit note that cancelled it" }),
    reason: text.nullable(),
    createdBy: text,
  })
  .meta({ id: "Invoice" });

export const Payment = z
  .object({
    id,
    number: text.meta({ description: "The receipt's number" }),
    fy: text,
    serial: z.number().int(),
    accountId: id,
    enquiryId: id,
    method: z.enum(PAYMENT_METHODS),
    reference: text,
    amountPaise: paise("Amount received"),
    receivedOn: day,
    status: z.enum(PAYMENT_STATUSES),
    note: text,
    gatewayPaymentId: text.nullable(),
    payerName: text,
    recordedBy: text,
    createdAt: instant,
    reversedAt: instant.nullable(),
    reversedBy: text.nullable(),
    reversalReason: text.nullable(),
  })
  .meta({ id: "Payment" });

export const Refund = z
  .object({
    id,
    paymentId: id,
    accountId: id,
    amountPaise: paise("Amount refunded"),
    reason: text,
    gatewayRefundId: text.nullable(),
    createdAt: instant,
    createdBy: text,
  })
  .meta({ id: "Refund" });

export const Concession = z
  .object({
    id,
    accountId: id,
    enquiryId: id,
    kind: z.enum(CONCESSION_KINDS),
    amountPaise: paise("Concession"),
    reason: text,
    status: z.enum(CONCESSION_STATUSES),
    requestedBy: text,
    requestedAt: instant,
    decidedBy: text.nullable(),
    decidedAt: instant.nullable(),
  })
  .meta({ id: "Concession" });

const UpiReport = z.object({
  id,
  dueId: id,
  accountId: id,
  enquiryId: id,
  utr: text,
  amountPaise: paise("Reported"),
  status: z.enum(UPI_REPORT_STATUSES),
  reportedAt: instant,
  decidedAt: instant.nullable(),
  decidedBy: text.nullable(),
  paymentId: id.nullable(),
});

export const FeeLedger = z
  .object({
    account: FeeAccount.nullable(),
    accounts: z.array(FeeAccount),
    dues: z.array(Due),
    invoices: z.array(Invoice),
    payments: z.array(Payment),
    upiReports: z.array(UpiReport),
    concessions: z.array(Concession),
    totals: z.object({
      billedPaise: paise("Billed (dues not cancelled)"),
      receivedPaise: paise("Received (payments not reversed, less refunds)"),
      outstandingPaise: paise("Left to pay"),
      creditPaise: paise("Received beyond the dues: taken by the next due"),
      overduePaise: paise("Left to pay on dues past their date"),
    }),
  })
  .meta({ id: "FeeLedger" });

export const FeePlanInput = z.object(feePlanSchema.shape).meta({ id: "FeePlanInput" });
export const PaymentInput = z.object(paymentSchema.shape).meta({ id: "PaymentInput" });
export const ReversalInput = z.object(reversalSchema.shape);
export const RefundInput = z.object(refundSchema.shape);
export const CreditNoteInput = z.object(creditNoteSchema.shape);
export const ConcessionInput = z.object(concessionSchema.shape);
export const ConcessionDecision = z.object(concessionDecisionSchema.shape);
