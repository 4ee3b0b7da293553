import * as z from "zod/mini";
import { DELIVERY_MODES, ENQUIRY_STATUSES, oneOf } from "./values";
import { blankToUndefined, choice, cleanText, flag, optionalText, preprocess, requiredEmail, requiredText } from "./fields";
import { privacyFields, withGuardianRule } from "./privacy";

export const PHONE_MESSAGE = "Valid 10-digit phone number is required";
/** Spec §5: also what a course that is not one of the catalogue's gets (the form's select offers no other). */
export const COURSE_REQUIRED = "Please select a course";

/**
 * An Indian phone number as visitors write it: 10 digits once every other character is removed (spec §5: spaces,
 * dashes, brackets…), or the same with the country code (+91 / 91, 12 digits) or a trunk 0 (11 digits) in front.
 * Stored as the 10-digit number, so "+91 98765 43210", "919876543210" and "09876543210" are one number.
 */
export function indianPhoneDigits(value: string): string | null {
  const digits = value.replace(/\D/g, "");
  if (digits.length === 10) return digits;
  if (digits.length === 12 && digits.startsWith("91")) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith("0")) return digits.slice(1);
  return null;
}

/**
 * indianPhoneDigits as a pattern, for the OpenAPI document: any non-digits around an optional 91 or 0 and then
 * exactly ten digits. It accepts exactly the strings indianPhoneDigits accepts (schemas.test.ts checks both).
 */
export const INDIAN_PHONE = /^\D*(?:9\D*1\D*|0\D*)?(?:\d\D*){10}$/;
/** How a phone is stored and answered: the ten digits. */
export const STORED_PHONE = /^\d{10}$/;

/** The number's checks after the blank test: at most 20 characters, then an Indian number, stored as its ten digits. */
const indianPhone = z.pipe(
  z.string({ error: "Phone number is required" }).check(
    z.trim(),
    z.minLength(1, "Phone number is required"),
    // abort: the pattern need not run over a long text.
    z.maxLength(20, { message: PHONE_MESSAGE, abort: true }),
    z.regex(INDIAN_PHONE, PHONE_MESSAGE),
  ),
  z.pipe(
    z.transform((v: string) => indianPhoneDigits(v)!),
    z.string().check(z.regex(STORED_PHONE)),
  ),
);
const cleanPhone = (v: unknown) => blankToUndefined(typeof v === "string" ? cleanText(v, false) : v);

const phone = preprocess(cleanPhone, indianPhone);

/** The contact form's phone: optional, but when given an Indian number like the enquiry form's (spec §5's rule). */
export const optionalIndianPhone = preprocess(cleanPhone, z.optional(indianPhone));

const fields = {
  fullName: requiredText("Full name is required", 100, "Full name"),
  email: requiredEmail(),
  phone,
  preferredCourse: requiredText(COURSE_REQUIRED, 200, "Course"),
  preferredMode: choice(DELIVERY_MODES, "Please select preferred mode"),
  message: optionalText(5000, "Message", "multi"),
};

/**
 * The HTML form: an unticked WhatsApp checkbox is simply absent, so absent means false. With the privacy fields
 * (app/schemas/privacy.ts): marketing and "I am under 18" unticked unless ticked, the notice version shown.
 */
export const enquiryFormSchema = withGuardianRule(z.object({ ...fields, whatsappNotifications: flag(false), ...privacyFields }));

/** The JSON API: whatsappNotifications defaults to true (spec §3). The record's fields, also what staff may correct (PUT). */
export const enquiryApiSchema = z.object({ ...fields, whatsappNotifications: flag(true) });

/** POST /api/enquiries: the record's fields and the privacy fields, each optional (marketing and under 18 default to false). */
export const enquirySubmitApiSchema = withGuardianRule(z.extend(enquiryApiSchema, privacyFields));

/** The fields a visitor sends, as stored, with the id and time: all an anonymous submission gets back. */
export const ENQUIRY_RECEIPT_FIELDS = [
  "id",
  "fullName",
  "email",
  "phone",
  "preferredCourse",
  "preferredMode",
  "message",
  "whatsappNotifications",
  "createdAt",
] as const;

export const enquiryStatusSchema = z.object({
  status: choice(ENQUIRY_STATUSES, `Status must be one of ${oneOf(ENQUIRY_STATUSES)}`),
});

/** PUT /api/enquiries/:id: staff may correct an enquiry and set its status in one call; its attachments stay as they are. */
export const enquiryUpdateSchema = z.extend(enquiryApiSchema, { status: z.optional(enquiryStatusSchema.shape.status) });

/** Attachments on /enquiry (DESIGN.md §4.9). */
export const ENQUIRY_MAX_FILES = 3;
export const ENQUIRY_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const ENQUIRY_FILE_TYPE_MESSAGE = "Please attach PDF, DOC, DOCX, JPG or PNG files only";
export const ENQUIRY_FILE_SIZE_MESSAGE = "Each file should be less than 5MB";
export const ENQUIRY_FILE_COUNT_MESSAGE = "You can attach up to 3 files";
/** The attachment folder is full (ENQUIRY_ATTACHMENT_QUOTA_MB): the visitor can still send the enquiry without files. */
export const ENQUIRY_ATTACHMENTS_FULL_MESSAGE = "We cannot accept attachments right now. Please send your enquiry without files, or e-mail them to us.";

export const ENQUIRY_FAILED = "There was an error submitting your registration. Please try again or contact us directly.";
