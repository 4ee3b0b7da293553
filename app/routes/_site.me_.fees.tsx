import { data, redirect, useActionData } from "react-router";
import { PageHero } from "~/components/site/page-hero";
import { FeePaymentOutcome, RazorpayCheckout, type FeeActionResult } from "~/components/site/me-fee-outcome";
import { RATE_LIMIT_MESSAGE } from "~/infra/rate-limit.server";
import { completeMyCheckout, reportMyUpiPayment, startMyGatewayPayment } from "~/services/fee-me.server";
import { UPI_REPORTED } from "~/services/payments.server";
import { isServiceError } from "~/services/service-error";
import { visitorActor } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import { PERSONAL_HEADERS } from "~/web/personal-headers";
import { meAccessOf } from "~/web/me-access.server";
import { ME_LINK_EXPIRED } from "~/schemas/privacy-messages";
import type { Route } from "./+types/_site.me_.fees";

/**
 * The student paying a due from their own page (/me): "I have paid" with a UPI UTR; Razorpay, as a Payment Link
 * (no JavaScript: the browser goes to Razorpay's page) or Checkout (JavaScript: its window opens here, and its answer
 * is posted back and checked on the server). Each answer is a page of its own with a way back to /me.
 */
export function headers() {
  return PERSONAL_HEADERS;
}

export const meta: Route.MetaFunction = () => [{ title: "Your fees" }, { name: "robots", content: "noindex" }];

// Only the forms' answers live here (the page a visitor reaches by GET says so and links to /me): a loader that
// redirected would also run after every POST and swallow the answer.
export async function loader() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const input = formToObject(form);
  const dueId = String(input.dueId ?? "");
  const actor = visitorActor(context);
  const answer = (result: FeeActionResult, status = 200) => data(result, { status });
  // The person's own page gave this browser its cookie (app/web/me-access.server.ts); without it, nobody is known.
  const access = await meAccessOf(request);
  if (!access) return answer({ kind: "error", message: ME_LINK_EXPIRED }, 400);
  try {
    switch (String(input.intent ?? "")) {
      case "upi-report":
        await reportMyUpiPayment(actor, access, dueId, input);
        return answer({ kind: "reported", message: UPI_REPORTED });
      case "razorpay": {
        const started = await startMyGatewayPayment(actor, access, dueId, input.mode === "checkout" ? "checkout" : "link");
        if (input.mode !== "checkout" && started.linkUrl) return redirect(started.linkUrl);
        return answer({
          kind: "checkout",
          checkout: {
            key: started.keyId,
            orderId: started.order.orderId,
            amountPaise: started.order.amountPaise,
            invoiceNumber: started.invoiceNumber,
            name: started.name,
            email: started.email,
            dueId,
          },
        });
      }
      case "checkout-done": {
        const done = await completeMyCheckout(actor, access, input);
        return answer({
          kind: "paid",
          amountPaise: done.received.payment.amountPaise,
          receipt: done.received.payment.number,
          invoiceNumber: done.invoiceNumber,
        });
      }
      default:
        return answer({ kind: "error", message: "Please use one of the buttons on your page." }, 400);
    }
  } catch (error) {
    if (isServiceError(error, "tooMany")) return answer({ kind: "error", message: RATE_LIMIT_MESSAGE }, 429);
    if (isServiceError(error)) return answer({ kind: "error", message: Object.values(error.fields)[0] ?? error.message }, error.status);
    throw error;
  }
}

export default function MyFeesAction() {
  const result = useActionData<typeof action>() as FeeActionResult | undefined;
  return (
    <main id="main">
      <PageHero title="Your fees" crumbs={[{ name: "Your fees" }]} intro="Paying your fees, and what we received." />
      <div className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
        {result?.kind === "checkout" && result.checkout ? <RazorpayCheckout checkout={result.checkout} /> : <FeePaymentOutcome result={result} />}
      </div>
    </main>
  );
}
