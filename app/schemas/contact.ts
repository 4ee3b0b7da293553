import * as z from "zod/mini";
import { optionalText, requiredEmail, requiredText } from "./fields";

export const contactSchema = z.object({
  name: requiredText("Name is required", 100, "Name"),
  email: requiredEmail(),
  phone: optionalText(20, "Phone"),
  subject: optionalText(200, "Subject"),
  message: requiredText("Message is required", 5000, "Message", "multi"),
});

export const CONTACT_FAILED = "Failed to submit message. Please try again.";
