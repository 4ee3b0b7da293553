import type { SubmissionResult } from "@conform-to/react";

/** What the public forms' actions answer; the forms read it from a fetcher (JavaScript) or the action data (without). */
export type SiteFormResult = {
  intent: "enquiry" | "contact";
  status: "success" | "error";
  submission: SubmissionResult<string[]>;
  /** A message for the whole form: rate limit, or a failed save. */
  formError?: string;
  /** A refused attachment (/enquiry only). */
  fileError?: string;
  /**
   * What the success panel says beyond the form's usual words: its own title and text (a place on a full batch's
   * waitlist, a minor's enquiry waiting for a guardian), the reference to quote, what was sent and where its copy went.
   */
  done?: { title?: string; text?: string; reference?: string; copyTo?: string; summary?: { label: string; value: string }[] };
};

/** The hidden field that tells the home page's action which of its two forms was sent. */
export const INTENT_FIELD = "intent";

/** A field that bots fill and people never see (the forms' Honeypot): a post with it set is dropped without a word. */
export const HONEYPOT_FIELD = "website";

export function resultFor(actionData: unknown, intent: SiteFormResult["intent"]): SiteFormResult | undefined {
  const r = actionData as SiteFormResult | undefined;
  return r && typeof r === "object" && r.intent === intent ? r : undefined;
}
