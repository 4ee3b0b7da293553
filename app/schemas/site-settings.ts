import * as z from "zod/mini";
import { SITE } from "~/config/site";
import { blankToUndefined, choice, cleanText, preprocess, requiredEmail, requiredText } from "./fields";
import { DEFAULT_STATE, INDIAN_STATE_NAMES } from "./fee-values";

/**
 * The site's configurable facts, edited by admins at /admin/settings and through PUT /api/settings
 * (app/services/site-settings.server.ts). Each key is one entry of SITE_SETTING_FIELDS: its check (the same for
 * the screen and the API), its default (from app/config/site.ts), its label and help, the screen's group and the
 * kind of input. Adding a setting is adding an entry here (the screen, the API, the OpenAPI document and the
 * store follow); a key absent from the store has its default.
 */

export const SITE_SETTING_GROUPS = {
  figures: {
    title: "Public figures",
    description:
      "The numbers every public page shows (home, about, reviews, search results), from here only. The dashboard warns when one claims more than the data shows (courses published, the average of approved reviews).",
  },
  privacy: {
    title: "Privacy and grievance contact",
    description: "Shown on /privacy as the person to ask about personal data or to complain to (DPDP Act). Answer within 90 days.",
  },
  fees: {
    title: "Fees, invoices and UPI",
    description:
      "What invoices and receipts say. With a GSTIN each due gets a tax invoice (CGST + SGST within the institute's state, IGST to another); without one, an invoice with no tax lines. Numbers run <prefix>/<financial year>/<serial>. Students pay by UPI to the UPI ID below.",
  },
} as const;
export type SiteSettingGroup = keyof typeof SITE_SETTING_GROUPS;

type Field<S extends z.core.$ZodType> = {
  schema: S;
  default: z.output<S>;
  label: string;
  hint?: string;
  group: SiteSettingGroup;
  input: "text" | "email" | "tel" | "textarea" | "number" | "select";
  /** For number inputs: the step (0.1 for a rating). */
  step?: number;
  /** May be left empty (the screen marks the others required). */
  optional?: boolean;
  /** For selects: the choices. */
  options?: readonly string[];
};
const field = <S extends z.core.$ZodType>(f: Field<S>) => f;

/** At least six digits, with the spaces, brackets, dashes and plus sign people write phone numbers with. */
const PHONE_SHAPE = /^[\s()+-]*(?:\d[\s()+-]*){6,}$/;
const PHONE_REQUIRED = "Phone is required";
const phone = preprocess(
  (v) => blankToUndefined(typeof v === "string" ? cleanText(v, false) : v),
  z
    .string({ error: PHONE_REQUIRED })
    .check(
      z.trim(),
      z.minLength(1, PHONE_REQUIRED),
      z.maxLength(30, "Phone must be at most 30 characters"),
      z.regex(PHONE_SHAPE, "Valid phone number is required"),
    ),
);

/** A number typed in a form ("5000", "4.9") or sent as JSON; blank is "missing". */
function figure(min: number, max: number, label: string, { integer = true } = {}) {
  const message = `${label} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}`;
  const base = integer ? z.int({ error: message }) : z.number({ error: message });
  return preprocess(
    (v) => {
      if (typeof v !== "string") return v;
      const t = v.trim().replace(/[,+%]/g, "");
      return t === "" ? undefined : Number(t);
    },
    base.check(z.minimum(min, message), z.maximum(max, message)),
  );
}

/**
 * Optional text kept as "" when blank (so clearing a value is a change the store keeps); when given, it must match
 * `pattern` (written so it also matches "", and so the OpenAPI document states it).
 */
function optionalSetting(max: number, label: string, pattern?: RegExp, patternMessage?: string) {
  return preprocess(
    (v) => (v === undefined || v === null ? "" : typeof v === "string" ? cleanText(v, false).trim() : v),
    z
      .string({ error: `${label} must be text` })
      .check(z.maxLength(max, `${label} must be at most ${max} characters`), ...(pattern ? [z.regex(pattern, patternMessage ?? `${label} is not valid`)] : [])),
  );
}

/** A GSTIN: 2-digit state code, PAN (5 letters, 4 digits, 1 letter), entity number, Z, check character. */
export const GSTIN_PATTERN = /^(?:\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z])?$/;
/** A UPI ID (virtual payment address): name@bank handle. */
export const UPI_ID_PATTERN = /^(?:[A-Za-z0-9._-]{2,200}@[A-Za-z][A-Za-z0-9.-]{1,63})?$/;

/** A GST rate in per cent ("9", "2.5"); the services use it as basis points (900). */
const rate = (label: string) => figure(0, 28, label, { integer: false });

/** "-3, 0, 3, 7": the days around a due date its reminders go (negative before). */
export const REMINDER_DAYS_PATTERN = /^\s*-?\d{1,3}(\s*,\s*-?\d{1,3}){0,9}\s*$/;

export const SITE_SETTING_FIELDS = {
  studentsTrained: field({
    schema: figure(0, 10_000_000, "Students trained"),
    default: SITE.figures.studentsTrained,
    label: "Students trained",
    hint: 'Shown as "5000+ Students Trained".',
    group: "figures",
    input: "number",
  }),
  coursesClaimed: field({
    schema: figure(0, 1000, "Specialized courses"),
    default: SITE.figures.coursesClaimed,
    label: "Specialized courses",
    hint: 'Shown as "10+ Specialized Courses". The dashboard warns while fewer courses are published.',
    group: "figures",
    input: "number",
  }),
  placementAssistance: field({
    schema: figure(0, 100, "Placement assistance"),
    default: SITE.figures.placementAssistance,
    label: "Placement assistance (% of students offered it)",
    hint: "A service, not an outcome: 100 is shown as “100% Placement Assistance, for every student”.",
    group: "figures",
    input: "number",
  }),
  rating: field({
    schema: figure(1, 5, "Rating", { integer: false }),
    default: SITE.figures.rating,
    label: "Rating (out of 5)",
    hint: "The dashboard warns when it is higher than the average of approved reviews.",
    group: "figures",
    input: "number",
    step: 0.1,
  }),
  ratingCount: field({
    schema: figure(0, 1_000_000, "Number of reviews"),
    default: SITE.figures.ratingCount,
    label: "Number of reviews behind the rating",
    hint: 'Shown as "125+ reviews".',
    group: "figures",
    input: "number",
  }),
  recommendRate: field({
    schema: figure(0, 100, "Recommend rate"),
    default: SITE.figures.recommendRate,
    label: "Would recommend us (%)",
    group: "figures",
    input: "number",
  }),
  placementRate: field({
    schema: figure(0, 100, "Placement rate"),
    default: SITE.figures.placementRate,
    label: "Placed after the course (%)",
    hint: 'An outcome: shown as "92% placed".',
    group: "figures",
    input: "number",
  }),
  privacyContactName: field({
    schema: requiredText("Name is required", 100, "Name"),
    default: SITE.privacyContact.name,
    label: "Name",
    hint: "A person or a role, e.g. Grievance Officer",
    group: "privacy",
    input: "text",
  }),
  privacyContactEmail: field({ schema: requiredEmail(), default: SITE.privacyContact.email, label: "Email", group: "privacy", input: "email" }),
  privacyContactPhone: field({
    schema: phone,
    default: SITE.privacyContact.phone,
    label: "Phone",
    group: "privacy",
    input: "tel",
  }),
  privacyContactAddress: field({
    schema: requiredText("Postal address is required", 300, "Postal address", "multi"),
    default: SITE.privacyContact.address,
    label: "Postal address",
    group: "privacy",
    input: "textarea",
  }),
  gstin: field({
    schema: optionalSetting(15, "GSTIN", GSTIN_PATTERN, "GSTIN must be 15 characters, such as 36AABCU9603R1ZM"),
    default: "",
    label: "GSTIN",
    hint: "Leave empty when the institute is not registered for GST: invoices then carry no tax lines.",
    group: "fees",
    input: "text",
    optional: true,
  }),
  invoiceLegalName: field({
    schema: requiredText("Legal name is required", 150, "Legal name"),
    default: SITE.name,
    label: "Legal name on invoices",
    group: "fees",
    input: "text",
  }),
  invoiceAddress: field({
    schema: requiredText("Address is required", 300, "Address", "multi"),
    default: `${SITE.address.street}, ${SITE.address.city}, ${SITE.address.region} ${SITE.address.postalCode}`,
    label: "Address on invoices",
    group: "fees",
    input: "textarea",
  }),
  invoiceState: field({
    schema: choice(INDIAN_STATE_NAMES, "Choose the institute's state"),
    default: DEFAULT_STATE,
    label: "Institute's state (GST)",
    hint: "Supply to a student in this state is taxed CGST + SGST; to any other state, IGST.",
    group: "fees",
    input: "select",
    options: INDIAN_STATE_NAMES,
  }),
  invoicePrefix: field({
    schema: preprocess(
      (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
      z.string({ error: "Invoice prefix is required" }).check(z.regex(/^[A-Z0-9]{1,8}$/, "Invoice prefix must be 1 to 8 letters or digits, such as CSA")),
    ),
    default: "CSA",
    label: "Invoice number prefix",
    hint: "Numbers read CSA/2026-27/0001 (credit notes CSA/2026-27/CN0001, receipts CSA/2026-27/R0001).",
    group: "fees",
    input: "text",
  }),
  sacCode: field({
    schema: preprocess(
      (v) => (typeof v === "string" ? v.trim() : v),
      z.string({ error: "SAC is required" }).check(z.regex(/^\d{6}$/, "SAC must be 6 digits, such as 999293")),
    ),
    default: "999293",
    label: "SAC (services accounting code)",
    hint: "999293: commercial training and coaching services.",
    group: "fees",
    input: "text",
  }),
  cgstRate: field({ schema: rate("CGST rate"), default: 9, label: "CGST rate (%)", group: "fees", input: "number", step: 0.01 }),
  sgstRate: field({ schema: rate("SGST rate"), default: 9, label: "SGST rate (%)", group: "fees", input: "number", step: 0.01 }),
  igstRate: field({ schema: rate("IGST rate"), default: 18, label: "IGST rate (%)", group: "fees", input: "number", step: 0.01 }),
  upiId: field({
    schema: optionalSetting(300, "UPI ID", UPI_ID_PATTERN, "UPI ID must look like institute@okhdfcbank"),
    default: "",
    label: "UPI ID",
    hint: "Where students pay by UPI (the pa= of the link and QR code). Empty: no UPI link or QR is shown.",
    group: "fees",
    input: "text",
    optional: true,
  }),
  upiPayeeName: field({
    schema: requiredText("Payee name is required", 100, "Payee name"),
    default: SITE.name,
    label: "UPI payee name",
    group: "fees",
    input: "text",
  }),
  reminderDays: field({
    schema: preprocess(
      (v) => (typeof v === "string" ? v.trim() : v),
      z
        .string({ error: "Reminder days are required" })
        .check(z.regex(REMINDER_DAYS_PATTERN, "Reminder days must be whole numbers separated by commas, such as -3, 0, 3, 7")),
    ),
    default: "-3, 0, 3, 7",
    label: "Fee reminders (days around the due date)",
    hint: "Negative: before the due date; 0: on the day. Each reminder goes once, never to someone who has paid.",
    group: "fees",
    input: "text",
  }),
};

export type SiteSettingKey = keyof typeof SITE_SETTING_FIELDS;
export const SITE_SETTING_KEYS = Object.keys(SITE_SETTING_FIELDS) as SiteSettingKey[];

type Shape = { [K in SiteSettingKey]: (typeof SITE_SETTING_FIELDS)[K]["schema"] };
const shape = Object.fromEntries(SITE_SETTING_KEYS.map((k) => [k, SITE_SETTING_FIELDS[k].schema])) as Shape;

/** Every setting: the admin screen's form (a field left blank is a mistake, not "keep"). */
export const siteSettingsSchema = z.object(shape);
/** PUT /api/settings: the keys sent are set, the others kept (a client written before a new key existed still works). */
export const siteSettingsUpdateSchema = z.partial(siteSettingsSchema);

export type SiteSettings = z.output<typeof siteSettingsSchema>;

export const SITE_SETTING_DEFAULTS = Object.fromEntries(SITE_SETTING_KEYS.map((k) => [k, SITE_SETTING_FIELDS[k].default])) as SiteSettings;

export const SETTINGS_SAVED = "Settings saved.";
export const SETTINGS_SAVE_FAILED = "Failed to save settings. Please try again.";
