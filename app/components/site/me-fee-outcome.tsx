import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { formatPaise } from "~/util/money";

export type CheckoutData = { key: string; orderId: string; amountPaise: number; invoiceNumber: string; name: string; email: string; dueId: string };
export type FeeActionResult = {
  kind: "reported" | "paid" | "checkout" | "error";
  message?: string;
  amountPaise?: number;
  receipt?: string;
  invoiceNumber?: string | null;
  checkout?: CheckoutData;
};

/** What a fee payment from /me came to: recorded (with the invoice and receipt numbers), reported, or refused. */
export function FeePaymentOutcome({ result }: { result?: FeeActionResult }) {
  if (!result) return <p>Nothing was sent.</p>;
  return (
    <div className="space-y-6">
      {result.kind === "paid" ? (
        <div role="status" className="space-y-2 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
          <h2 className="text-xl font-bold">Payment received: thank you</h2>
          <p>
            We received {formatPaise(result.amountPaise ?? 0)}. Invoice <strong>{result.invoiceNumber}</strong>, receipt <strong>{result.receipt}</strong>. We
            have e-mailed you the receipt.
          </p>
        </div>
      ) : (
        <p
          role={result.kind === "error" ? "alert" : "status"}
          className={`rounded-lg border p-4 ${result.kind === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-green-200 bg-green-50 text-green-900"}`}
        >
          {result.message}
        </p>
      )}
      {/* A whole page: /me reads its cookie, which a client-side navigation (fetching /me.data) does not carry. */}
      <Link reloadDocument to="/me#fees" className={buttonClass("outline")}>
        Back to your page
      </Link>
    </div>
  );
}

type RazorpayWindow = Window & { Razorpay?: new (options: Record<string, unknown>) => { open: () => void } };

/**
 * Razorpay Checkout for one order (JavaScript): its script from Razorpay's CDN opens the payment window; the answer it
 * gives (payment id, order id, signature) is posted back here and checked on the server. When the script cannot load,
 * the Payment Link button below still works.
 */
export function RazorpayCheckout({ checkout }: { checkout: CheckoutData }) {
  const form = useRef<HTMLFormElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const script = document.createElement("script");
    script.src = "https://checkout.razorpay.com/v1/checkout.js";
    script.onload = () => setReady(true);
    document.body.appendChild(script);
    return () => script.remove();
  }, []);
  const open = () => {
    const Razorpay = (window as RazorpayWindow).Razorpay;
    if (!Razorpay || !form.current) return;
    const target = form.current;
    new Razorpay({
      key: checkout.key,
      order_id: checkout.orderId,
      amount: checkout.amountPaise,
      currency: "INR",
      name: "Fees",
      description: `Invoice ${checkout.invoiceNumber}`,
      prefill: { name: checkout.name, email: checkout.email },
      handler: (r: Record<string, string>) => {
        for (const k of ["razorpay_payment_id", "razorpay_order_id", "razorpay_signature"])
          (target.elements.namedItem(k) as HTMLInputElement).value = r[k] ?? "";
        target.requestSubmit();
      },
    }).open();
  };
  return (
    <div className="space-y-4">
      <p>
        Pay {formatPaise(checkout.amountPaise)} for invoice <strong>{checkout.invoiceNumber}</strong>.
      </p>
      <button type="button" className={buttonClass("primary")} onClick={open} disabled={!ready}>
        Pay {formatPaise(checkout.amountPaise)} now
      </button>
      <Form ref={form} method="post" action="/me/fees" hidden>
        <input type="hidden" name="intent" value="checkout-done" />
        <input type="hidden" name="razorpay_payment_id" />
        <input type="hidden" name="razorpay_order_id" />
        <input type="hidden" name="razorpay_signature" />
      </Form>
      <Form method="post" action="/me/fees">
        <input type="hidden" name="intent" value="razorpay" />
        <input type="hidden" name="mode" value="link" />
        <input type="hidden" name="dueId" value={checkout.dueId} />
        <button type="submit" className={buttonClass("outline")}>
          Or pay on Razorpay&apos;s page
        </button>
      </Form>
    </div>
  );
}
