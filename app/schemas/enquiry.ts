import * as z from "zod/mini";
import { blankToUndefined, choice, flag, optionalText, preprocess, requiredEmail, requiredText } from "./fields";

export const PREFERRED_MODES = ["online", "offline", "hybrid"] as const;
export const ENQUIRY_STATUSES = ["new", "contacted", "enrolled", "closed"] as const;

const phone = preprocess(
  blankToUndefined,
  z.string({ error: "Phone number is required" }).check(
    z.trim(),
    z.minLength(1, "Phone number is required"),
    z.refine((v) => v.length <= 20 && v.replace(/\D/g, "").length === 10, { message: "Valid 10-digit phone number is required" }),
  ),
);

const fields = {
  fullName: requiredText("Full name is required", 100, "Full name"),
  email: requiredEmail(),
  phone,
  preferredCourse: requiredText("Please select a course", 200, "Course"),
  preferredMode: choice(PREFERRED_MODES, "Please select preferred mode"),
  message: optionalText(5000, "Message"),
};

/** The HTML form: an unticked WhatsApp checkbox is simply absent, so absent means false. */
export const enquiryFormSchema = z.object({ ...fields, whatsappNotifications: flag(false) });

/** The JSON API: whatsappNotifications defaults to true (spec §3). */
export const enquiryApiSchema = z.object({ ...fields, whatsappNotifications: flag(true) });

export type EnquiryValues = z.infer<typeof enquiryFormSchema>;

export const enquiryStatusSchema = z.object({
  status: choice(ENQUIRY_STATUSES, "Status must be one of new, contacted, enrolled, closed"),
});

/** PUT /api/enquiries/:id: staff may correct an enquiry and set its status in one call; its attachments stay as they are. */
export const enquiryUpdateSchema = z.extend(enquiryApiSchema, { status: z.optional(enquiryStatusSchema.shape.status) });

/** Attachments on /enquiry (DESIGN.md §4.9). */
export const ENQUIRY_MAX_FILES = 3;
export const ENQUIRY_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const ENQUIRY_FILE_TYPE_MESSAGE = "Please attach PDF, DOC, DOCX, JPG or PNG files only";
export const ENQUIRY_FILE_SIZE_MESSAGE = "Each file should be less than 5MB";
export const ENQUIRY_FILE_COUNT_MESSAGE = "You can attach up to 3 files";

export const ENQUIRY_FAILED = "There was an error submitting your registration. Please try again or contact us directly.";
