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

export const SITE_SETTING_FIELDS = {
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
