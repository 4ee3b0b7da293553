import { ApiError, endpoint, json } from "~/web/api.server";
import { handleRazorpayWebhook } from "~/services/razorpay.server";
import { isServiceError } from "~/services/service-error";
import type { Route } from "./+types/api.razorpay.webhook";

/**
 * Razorpay's webhook (payment.captured, order.paid, refund.processed): a cross-site POST with no cookie, signed with
 * RAZORPAY_WEBHOOK_SECRET over the raw body (`X-Razorpay-Signature`). Unsigned or tampered: 400 and nothing changes.
 * Handled once per event id and per payment id, so Razorpay's retries and their order do not matter.
 */
const handle = endpoint({
  async POST({ request }) {
    const raw = Buffer.from(await request.arrayBuffer());
    try {
      const { handled } = await handleRazorpayWebhook(raw, request.headers.get("x-razorpay-signature"), request.headers.get("x-razorpay-event-id"));
      return json({ status: handled ? "processed" : "ignored" });
    } catch (error) {
      if (isServiceError(error, "invalid")) throw new ApiError(400, error.code, error.message);
      throw error;
    }
  },
});

export const loader = (args: Route.LoaderArgs) => handle(args);
export const action = (args: Route.ActionArgs) => handle(args);
