import { data } from "react-router";
import { PageHero } from "~/components/site/page-hero";
import { FeePaymentOutcome, type FeeActionResult } from "~/components/site/me-fee-outcome";
import { completePaymentLink } from "~/services/razorpay.server";
import { isServiceError } from "~/services/service-error";
import { PERSONAL_HEADERS } from "~/web/personal-headers";
import type { Route } from "./+types/_site.me_.pay.razorpay";

/**
 * Where Razorpay's Payment Link page sends the student back (a GET with its signed query): checked against the link
 * we stored, the payment read from Razorpay and recorded once (its webhook may come before or after). The page says
 * what was received with the invoice and receipt numbers; the receipt goes by e-mail.
 */
export function headers() {
  return PERSONAL_HEADERS;
}

export const meta: Route.MetaFunction = () => [{ title: "Payment received" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  // Opened without Razorpay's answer (a bookmark, a crawler): nothing to confirm, and nothing wrong either.
  if (!query.has("razorpay_payment_link_id")) return null;
  try {
    const done = await completePaymentLink(null, query);
    const result: FeeActionResult = {
      kind: "paid",
      amountPaise: done.received.payment.amountPaise,
      receipt: done.received.payment.number,
      invoiceNumber: done.invoiceNumber,
    };
    return result;
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return data({ kind: "error", message: error.message } as FeeActionResult, { status: error.status });
  }
}

export default function RazorpayReturn({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main">
      <PageHero title="Your payment" crumbs={[{ name: "Your payment" }]} intro="What we received from Razorpay." />
      <div className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
        {loaderData ? (
          <FeePaymentOutcome result={loaderData} />
        ) : (
          <p>
            This page confirms payments made through Razorpay. Your fees, invoices and receipts are on{" "}
            <a href="/me" className="text-brand-700 underline">
              your own page
            </a>
            , opened by the link in our e-mails.
          </p>
        )}
      </div>
    </main>
  );
}
