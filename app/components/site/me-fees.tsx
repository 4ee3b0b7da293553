import { useEffect, useState } from "react";
import { Form } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { DUE_STATE_LABELS, INVOICE_KIND_LABELS, PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from "~/schemas/fee-values";
import type { MyFees } from "~/services/fee-me.server";
import { formatDate } from "~/util/dates";
import { formatPaise } from "~/util/money";

const card = "rounded-2xl border border-slate-200 bg-white p-6 shadow-sm";

/**
 * The student's fees on their own page (issue 38): totals, each due with its state, amount and date, and for what is
 * left to pay a Pay section: the UPI link and QR code (drawn on the server), "I have paid" with the UTR, and Razorpay
 * when the institute uses it; then the invoices and receipts to download as PDF. Plain forms and links: all of it
 * works without JavaScript.
 */
export function MeFees({ fees }: { fees: MyFees }) {
  const t = fees.totals;
  return (
    <section id="fees" aria-labelledby="fees-title" className={`${card} scroll-mt-24 space-y-5`}>
      <h2 id="fees-title" className="text-xl font-bold text-slate-900">
        Your fees
      </h2>
      <p className="text-sm text-slate-700">
        Billed {formatPaise(t.billedPaise)} · Paid {formatPaise(t.receivedPaise)} · <strong>Left to pay {formatPaise(t.outstandingPaise)}</strong>
        {t.creditPaise ? ` · In credit ${formatPaise(t.creditPaise)}` : ""}
      </p>
      <ul className="space-y-4">
        {fees.dues.map((d) => (
          <li key={d.id} className="rounded-xl border border-slate-200 p-4" data-testid="my-due">
            <p className="font-semibold text-slate-900">
              {d.label}: {formatPaise(d.amountPaise)}, due {formatDate(d.dueDate)} · <span>{DUE_STATE_LABELS[d.state]}</span>
            </p>
            <p className="text-sm text-slate-600">
              {d.course}
              {d.invoiceNumber ? ` · Invoice ${d.invoiceNumber}` : ""}
              {d.paidPaise && d.leftPaise ? ` · ${formatPaise(d.leftPaise)} left to pay` : ""}
            </p>
            {d.leftPaise > 0 ? <PayDue due={d} razorpay={fees.razorpay} /> : null}
          </li>
        ))}
      </ul>
      {fees.invoices.length || fees.payments.length ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <h3 className="font-semibold text-slate-900">Invoices</h3>
            <ul className="mt-1 space-y-1 text-sm">
              {fees.invoices.map((i) => (
                <li key={i.id}>
                  <a href={`/me/fees/invoices/${i.id}.pdf`} className="text-brand-700 underline" download>
                    {INVOICE_KIND_LABELS[i.kind]} {i.number} (PDF)
                  </a>{" "}
                  {formatPaise(i.totalPaise)}, {formatDate(i.issuedOn)}
                  {i.cancelled ? ", cancelled" : ""}
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="font-semibold text-slate-900">Receipts</h3>
            <ul className="mt-1 space-y-1 text-sm">
              {fees.payments.map((p) => (
                <li key={p.id}>
                  <a href={`/me/fees/receipts/${p.id}.pdf`} className="text-brand-700 underline" download>
                    Receipt {p.number} (PDF)
                  </a>{" "}
                  {formatPaise(p.amountPaise)}, {PAYMENT_METHOD_LABELS[p.method]}, {formatDate(p.receivedOn)}
                  {p.status === "reversed" ? `, ${PAYMENT_STATUS_LABELS.reversed}` : ""}
                </li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function PayDue({ due, razorpay }: { due: MyFees["dues"][number]; razorpay: boolean }) {
  // With JavaScript, Razorpay's Checkout opens on this page's next step; without it, its Payment Link page.
  const [mode, setMode] = useState("link");
  useEffect(() => setMode("checkout"), []);
  return (
    <section className="mt-3" aria-label={`Pay ${due.label}`}>
      <h3 className="font-semibold text-slate-900">Pay {formatPaise(due.leftPaise)}</h3>
      <div className="mt-3 grid grid-cols-1 gap-4 sm:grid-cols-[auto_minmax(0,1fr)]">
        {due.upi ? (
          <>
            <div className="w-60 max-w-full" data-testid="upi-qr" dangerouslySetInnerHTML={{ __html: due.upi.qrSvg }} />
            <div className="min-w-0 space-y-3 text-sm">
              <p>
                Scan the code with any UPI app (Google Pay, PhonePe, Paytm, BHIM), or on this phone{" "}
                <a href={due.upi.link} className="font-semibold text-brand-700 underline" data-testid="upi-link">
                  open your UPI app
                </a>
                . The payment note is <strong>{due.upi.note}</strong>.
              </p>
              {due.reported ? (
                <p className="rounded-lg bg-amber-50 p-3 text-amber-900">You told us you paid: we are checking it with our bank.</p>
              ) : (
                <Form method="post" action="/me/fees" className="space-y-2">
                  <input type="hidden" name="dueId" value={due.id} />
                  <input type="hidden" name="intent" value="upi-report" />
                  <label htmlFor={`utr-${due.id}`} className="block font-medium text-slate-800">
                    Paid already? Enter the 12-digit UTR your UPI app shows
                  </label>
                  <input id={`utr-${due.id}`} name="utr" inputMode="numeric" pattern="[0-9 ]{12,14}" required className={inputClass} />
                  <button type="submit" className={buttonClass("outline")}>
                    I have paid
                  </button>
                </Form>
              )}
            </div>
          </>
        ) : null}
        {razorpay ? (
          <Form method="post" action="/me/fees" className="min-w-0 sm:col-span-2">
            <input type="hidden" name="dueId" value={due.id} />
            <input type="hidden" name="intent" value="razorpay" />
            <input type="hidden" name="mode" value={mode} />
            <button type="submit" className={buttonClass("primary")}>
              Pay online with Razorpay
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
