import { consumeFormAttempt, RATE_LIMIT_MESSAGE, retryAfterHeaders } from "./rate-limit.server";
import { ApiError } from "./api.server";

/** The public forms' per-IP budget applies to their API twins too, so the API is no way around it. */
export async function throttleForm(ip: string, form: "enquiry" | "contact"): Promise<void> {
  const decision = await consumeFormAttempt(ip, form);
  if (!decision.ok) throw new ApiError(429, "rate_limited", RATE_LIMIT_MESSAGE, undefined, retryAfterHeaders(decision));
}
