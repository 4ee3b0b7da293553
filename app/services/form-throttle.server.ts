import { consumeFormAttempt, RATE_LIMIT_MESSAGE, type FormName } from "~/infra/rate-limit.server";
import type { Actor } from "./actor";
import { tooMany } from "./service-error";

/**
 * The public forms' per-IP budget (FORM_RATE_LIMIT per FORM_RATE_WINDOW), for the pages and their API twins
 * alike, so the API is no way around it. Callers count the attempt before they read the body: a flood of
 * uploads, valid or not, is refused before any file is stored or decoded. A signed-in staff member (an
 * integration with a staff token) is not a stranger and is not counted.
 */
export async function admitFormSubmission(actor: Actor, form: FormName): Promise<void> {
  if (actor.user) return;
  const decision = await consumeFormAttempt(actor.ip, form);
  if (!decision.ok) throw tooMany(RATE_LIMIT_MESSAGE, decision.retryAfter);
}
