import { Form } from "react-router";
import {
  CONCESSION_KIND_LABELS,
  CONCESSION_KINDS,
  DUE_STATE_LABELS,
  INDIAN_STATE_NAMES,
  INVOICE_KIND_LABELS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  STAFF_PAYMENT_METHODS,
} from "~/schemas/fee-values";
import type { Ledger } from "~/services/fee-ledger.server";
import { formatDate, formatDateTime } from "~/util/dates";
import { formatPaise } from "~/util/money";
import { BUTTON_STYLES, SubmitButton } from "./buttons";
import { SectionFlash } from "./dialog-flash";
import { INPUT_CLASS } from "./form-field";
import { StatusBadge } from "./status-badge";
import { DUE_STATE_TONE } from "~/components/ui/badge-tones";
import { WriteGuardFields } from "./write-guard-fields";

export type FeePanelData = { ledger: Ledger; isAdmin: boolean; formKey: string; today: string };

/**
 * The student's money on the enquiry's details (issue 38): what is billed, received, outstanding and in credit; each
 * due with its state and invoice; the payments with their receipts; Record payment (cash, bank transfer, cheque, UPI);
 * a reversal or an invoice's cancellation with a reason; "I have paid" reports to confirm. Plain forms that come back
 * to #fees with their message, JavaScript or not.
 */
export function FeeLedgerPanel({ data, action }: { data: FeePanelData; action: string }) {
  const { ledger, isAdmin, formKey } = data;
  const t = ledger.totals;
  const pendingUpi = ledger.upiReports.filter((r) => r.status === "pending");
  return (
    <section id="fees" aria-labelledby="fees-title" className="max-w-full min-w-0 scroll-mt-4 space-y-4 rounded-lg border border-slate-200 p-4">
      <h3 id="fees-title" className="text-base font-semibold text-slate-900">
        Fees
      </h3>
      <SectionFlash at="fees" />
      {!ledger.account ? (
        <p className="text-sm text-slate-600">No fee account yet: it opens when the student is enrolled.</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {ledger.account.courseTitle} · {ledger.account.planName} · billed to {ledger.account.billingName}, {ledger.account.billingState}
            {ledger.account.status === "ended" ? " · no longer enrolled" : ""}
          </p>
          {ledger.account.status === "active" ? (
            <details className="text-sm">
              <summary className="cursor-pointer text-brand-700">Change the state for invoices (place of supply)</summary>
              <Form method="post" action={action} preventScrollReset className="mt-2 flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="billing-state" />
                <div className="text-sm">
                  <label htmlFor="billing-state">State</label>
                  <select id="billing-state" name="billingState" defaultValue={ledger.account.billingState} className={`${INPUT_CLASS} mt-1`}>
                    {INDIAN_STATE_NAMES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </select>
                </div>
                <SubmitButton pendingText="Saving...">Save state</SubmitButton>
              </Form>
              <p className="mt-1 text-slate-600">Invoices issued from now on use it; those already issued keep theirs.</p>
            </details>
          ) : null}
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
            {[
              ["Billed", t.billedPaise],
              ["Received", t.receivedPaise],
              ["Outstanding", t.outstandingPaise],
              ["Credit", t.creditPaise],
            ].map(([label, v]) => (
              <div key={label} className="rounded-md bg-slate-50 px-3 py-2">
                <dt className="text-slate-600">{label}</dt>
                <dd className="font-semibold text-slate-900" data-testid={`fees-${String(label).toLowerCase()}`}>
                  {formatPaise(Number(v))}
                </dd>
              </div>
            ))}
          </dl>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Dues</caption>
              <thead className="text-slate-600">
                <tr>
                  <th className="py-1 pr-3 font-medium">Due</th>
                  <th className="py-1 pr-3 font-medium">Date</th>
                  <th className="py-1 pr-3 text-right font-medium">Amount</th>
                  <th className="py-1 pr-3 text-right font-medium">Paid</th>
                  <th className="py-1 pr-3 font-medium">Status</th>
                  <th className="py-1 font-medium">Invoice</th>
                </tr>
              </thead>
              <tbody>
                {ledger.dues.map((d) => (
                  <tr key={d.id} className="border-t border-slate-100" data-testid="fee-due">
                    <td className="py-1 pr-3">{d.label}</td>
                    <td className="py-1 pr-3 whitespace-nowrap">{formatDate(d.dueDate)}</td>
                    <td className="py-1 pr-3 text-right whitespace-nowrap">{formatPaise(d.amountPaise)}</td>
                    <td className="py-1 pr-3 text-right whitespace-nowrap">{formatPaise(d.paidPaise)}</td>
                    <td className="py-1 pr-3">
                      <StatusBadge tone={DUE_STATE_TONE[d.state]}>{DUE_STATE_LABELS[d.state]}</StatusBadge>
                    </td>
                    <td className="py-1">
                      {d.invoiceId && d.invoiceNumber ? (
                        <a href={`/admin/fees/invoices/${d.invoiceId}.pdf`} className="text-brand-700 underline">
                          {d.invoiceNumber}
                        </a>
                      ) : d.status !== "cancelled" ? (
                        <Form method="post" action={action} preventScrollReset>
                          <input type="hidden" name="intent" value="issue-invoice" />
                          <input type="hidden" name="dueId" value={d.id} />
                          <button type="submit" className="text-brand-700 underline">
                            Issue invoice
                          </button>
                        </Form>
                      ) : (
                        "-"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      {pendingUpi.length ? (
        <div className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm">
          <p className="font-semibold text-amber-900">Reported paid by UPI: check the UTR in the bank statement, then confirm</p>
          {pendingUpi.map((r) => (
            <div key={r.id} className="flex flex-wrap items-center gap-2">
              <span>
                UTR {r.utr}, {formatPaise(r.amountPaise)}, {formatDateTime(r.reportedAt)} IST
              </span>
              <Form method="post" action={action} preventScrollReset className="flex gap-2">
                <input type="hidden" name="reportId" value={r.id} />
                <button type="submit" name="intent" value="confirm-upi" className={BUTTON_STYLES.primary}>
                  Confirm payment
                </button>
                <button type="submit" name="intent" value="reject-upi" className={BUTTON_STYLES.secondary}>
                  Not received
                </button>
              </Form>
            </div>
          ))}
        </div>
      ) : null}

      {ledger.payments.length ? (
        <div>
          <h4 className="text-sm font-semibold text-slate-900">Payments</h4>
          <ul className="mt-1 space-y-2 text-sm">
            {ledger.payments.map((p) => (
              <li key={p.id} className="rounded-md bg-slate-50 px-3 py-2" data-testid="fee-payment">
                <a href={`/admin/fees/receipts/${p.id}.pdf`} className="font-semibold text-brand-700 underline">
                  {p.number}
                </a>{" "}
                {formatPaise(p.amountPaise)} · {PAYMENT_METHOD_LABELS[p.method]}
                {p.reference ? ` ${p.reference}` : ""} · {formatDate(p.receivedOn)} · {PAYMENT_STATUS_LABELS[p.status]}
                {p.status === "reversed" ? ` (${p.reversalReason ?? ""})` : ""}
                {p.status === "recorded" ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-red-800">{p.gatewayPaymentId ? "Refund through Razorpay" : "Refund"}</summary>
                    <Form method="post" action={action} preventScrollReset className="mt-2 flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="refund-payment" />
                      <input type="hidden" name="paymentId" value={p.id} />
                      <label className="text-sm">
                        Amount to refund (₹)
                        <input name="amountPaise" required inputMode="decimal" className={`${INPUT_CLASS} mt-1 w-32`} />
                      </label>
                      <label className="text-sm">
                        Reason for the refund
                        <input name="reason" required maxLength={300} className={`${INPUT_CLASS} mt-1`} />
                      </label>
                      <SubmitButton variant="danger" pendingText="Refunding...">
                        Refund
                      </SubmitButton>
                    </Form>
                  </details>
                ) : null}
                {p.status === "recorded" && !p.gatewayPaymentId ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-red-800">Reverse this payment</summary>
                    <Form method="post" action={action} preventScrollReset className="mt-2 flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="reverse-payment" />
                      <input type="hidden" name="paymentId" value={p.id} />
                      <label className="text-sm">
                        Reason
                        <input name="reason" required maxLength={300} className={`${INPUT_CLASS} mt-1`} />
                      </label>
                      <SubmitButton variant="danger" pendingText="Reversing...">
                        Reverse payment
                      </SubmitButton>
                    </Form>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {ledger.invoices.length ? (
        <div>
          <h4 className="text-sm font-semibold text-slate-900">Invoices and credit notes</h4>
          <ul className="mt-1 space-y-1 text-sm">
            {ledger.invoices.map((i) => (
              <li key={i.id}>
                <a href={`/admin/fees/invoices/${i.id}.pdf`} className="text-brand-700 underline">
                  {INVOICE_KIND_LABELS[i.kind]} {i.number}
                </a>{" "}
                {formatPaise(i.totalPaise)} · {formatDate(i.issuedOn)}
                {i.status === "cancelled" ? " · cancelled" : ""}
                {i.kind === "credit_note" && i.reason ? ` · ${i.reason}` : ""}
                {isAdmin && i.kind !== "credit_note" && i.status === "issued" ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-red-800">Cancel with a credit note</summary>
                    <Form method="post" action={action} preventScrollReset className="mt-2 flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="cancel-invoice" />
                      <input type="hidden" name="invoiceId" value={i.id} />
                      <label className="text-sm">
                        Reason
                        <input name="reason" required maxLength={300} className={`${INPUT_CLASS} mt-1`} />
                      </label>
                      <SubmitButton variant="danger" pendingText="Cancelling...">
                        Issue credit note
                      </SubmitButton>
                    </Form>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {ledger.account ? <RecordPaymentForm action={action} formKey={formKey} today={data.today} /> : null}
      {ledger.account ? <Concessions data={data} action={action} /> : null}
    </section>
  );
}

function RecordPaymentForm({ action, formKey, today }: { action: string; formKey: string; today: string }) {
  return (
    <Form
      method="post"
      action={action}
      preventScrollReset
      className="space-y-3 rounded-md border border-brand-100 bg-brand-50 p-3"
      aria-labelledby="record-payment-title"
    >
      <h4 id="record-payment-title" className="text-sm font-semibold text-slate-900">
        Record payment
      </h4>
      <input type="hidden" name="intent" value="payment" />
      <WriteGuardFields formKey={formKey} form="payment" />
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm font-medium text-slate-700">
          Method
          <select name="method" defaultValue="upi" className={`${INPUT_CLASS} mt-1`}>
            {STAFF_PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {PAYMENT_METHOD_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Amount (₹)
          <input name="amountPaise" inputMode="decimal" required placeholder="47,200" className={`${INPUT_CLASS} mt-1`} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Reference (UTR, bank reference or cheque number)
          <input name="reference" maxLength={100} className={`${INPUT_CLASS} mt-1`} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Received on
          <input type="date" name="receivedOn" defaultValue={today} max={today} className={`${INPUT_CLASS} mt-1`} />
        </label>
      </div>
      <SubmitButton pendingText="Recording...">Record payment</SubmitButton>
    </Form>
  );
}

/** Scholarships and concessions: asked for with a reason, applied when an admin approves. */
function Concessions({ data, action }: { data: FeePanelData; action: string }) {
  const { concessions } = data.ledger;
  return (
    <div className="space-y-2">
      {concessions.length ? (
        <ul className="space-y-1 text-sm">
          {concessions.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-2">
              <span>
                {CONCESSION_KIND_LABELS[c.kind]} {formatPaise(c.amountPaise)}: {c.reason} ({c.status}
                {c.decidedBy ? ` by ${c.decidedBy}` : ""})
              </span>
              {c.status === "pending" && data.isAdmin ? (
                <Form method="post" action={action} preventScrollReset className="flex gap-2">
                  <input type="hidden" name="concessionId" value={c.id} />
                  <button type="submit" name="intent" value="approve-concession" className={BUTTON_STYLES.primary}>
                    Approve
                  </button>
                  <button type="submit" name="intent" value="reject-concession" className={BUTTON_STYLES.secondary}>
                    Reject
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <details>
        <summary className="cursor-pointer text-sm text-brand-700">Ask for a scholarship or concession</summary>
        <Form method="post" action={action} preventScrollReset className="mt-2 grid gap-2 sm:grid-cols-4">
          <input type="hidden" name="intent" value="concession" />
          <label className="text-sm">
            Kind
            <select name="kind" className={`${INPUT_CLASS} mt-1`}>
              {CONCESSION_KINDS.map((k) => (
                <option key={k} value={k}>
                  {CONCESSION_KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            Amount (₹)
            <input name="amountPaise" inputMode="decimal" required className={`${INPUT_CLASS} mt-1`} />
          </label>
          <label className="text-sm sm:col-span-2">
            Reason
            <input name="reason" required maxLength={300} className={`${INPUT_CLASS} mt-1`} />
          </label>
          <SubmitButton variant="secondary" pendingText="Sending...">
            Ask an admin to approve
          </SubmitButton>
        </Form>
      </details>
    </div>
  );
}
