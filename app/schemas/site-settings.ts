import * as z from "zod/mini";
import { SITE } from "~/config/site";
import { blankToUndefined, cleanText, preprocess, requiredEmail, requiredText } from "./fields";

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
} as const;
export type SiteSettingGroup = keyof typeof SITE_SETTING_GROUPS;

type Field<S extends z.core.$ZodType> = {
  schema: S;
  default: z.output<S>;
  label: string;
  hint?: string;
  group: SiteSettingGroup;
  input: "text" | "email" | "tel" | "textarea" | "number";
  /** For number inputs: the step (0.1 for a rating). */
  step?: number;
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
