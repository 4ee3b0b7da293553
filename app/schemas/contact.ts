import * as z from "zod/mini";
import { optionalText, requiredEmail, requiredText } from "./fields";
import { optionalIndianPhone } from "./enquiry";

export const contactSchema = z.object({
  name: requiredText("Name is required", 100, "Name"),
  email: requiredEmail(),
  // When given, a 10-digit Indian number like the enquiry form's (+91 or a trunk 0 accepted), stored as its ten digits.
  phone: optionalIndianPhone,
  subject: optionalText(200, "Subject"),
  message: requiredText("Message is required", 5000, "Message", "multi"),
});

export const CONTACT_FAILED = "Failed to submit message. Please try again.";
