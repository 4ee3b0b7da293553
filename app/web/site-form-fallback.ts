import { CONTACT_FAILED } from "~/schemas/contact";
import { ENQUIRY_FAILED } from "~/schemas/enquiry";
import { INTENT_FIELD, type SiteFormResult } from "./site-forms";

/**
 * The forms' clientAction: when the request itself fails (connection lost, server down), answer like the server
 * would, with the spec's failure message and the typed values, instead of replacing the page with the error screen.
 * Loaded with the forms' own code (use-site-form imports it), so it is in the browser before any submission.
 */
export async function submitOrExplain(request: Request, serverAction: () => Promise<unknown>, opts: { enquiryMessage: boolean }) {
  const formData = await request.clone().formData();
  try {
    return await serverAction();
  } catch (error) {
    console.error("The form could not be sent", error);
    const intent = formData.get(INTENT_FIELD) === "contact" ? "contact" : "enquiry";
    const initialValue: Record<string, string> = {};
    formData.forEach((value, key) => {
      if (typeof value === "string") initialValue[key] = value;
    });
    const formError = intent === "contact" ? CONTACT_FAILED : opts.enquiryMessage ? ENQUIRY_FAILED : undefined;
    return { intent, status: "error", submission: { status: "error", initialValue, error: {} }, formError } satisfies SiteFormResult;
  }
}
