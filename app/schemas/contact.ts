import * as z from "zod/mini";
import { optionalText, requiredEmail, requiredText } from "./fields";
import { optionalIndianPhone } from "./enquiry";
import { privacyFields, withGuardianRule } from "./privacy";

/** The message's own fields (what staff see). */
export const contactFields = {
  name: requiredText("Name is required", 100, "Name"),
  email: requiredEmail(),
  // When given, a 10-digit Indian number like the enquiry form's (+91 or a trunk 0 accepted), stored as its ten digits.
  phone: optionalIndianPhone,
  subject: optionalText(200, "Subject"),
  message: requiredText("Message is required", 5000, "Message", "multi"),
};

/** The contact form and POST /api/contact-queries: the message and the privacy fields (app/schemas/privacy.ts). */
export const contactSchema = withGuardianRule(z.object({ ...contactFields, ...privacyFields }));

export const CONTACT_FAILED = "Failed to submit message. Please try again.";
