import * as z from "zod/mini";
import { PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";
import { blankToUndefined, flag, optionalText, preprocess } from "./fields";

/**
 * The privacy fields every public form and its API twin take (DPDP Act): the separate, unticked marketing choice;
 * "I am under 18" (unticked) with a parent's or guardian's name and e-mail, required only when it is ticked; and
 * the version of the privacy notice shown with the form (hidden). Left out, a form sends exactly what it sent
 * before, and nothing changes for it.
 */

export const GUARDIAN_NAME_REQUIRED = "Parent or guardian's name is required";
export const GUARDIAN_EMAIL_REQUIRED = "Parent or guardian's email is required";
export const GUARDIAN_EMAIL_INVALID = "Valid email is required";
export const GUARDIAN_EMAIL_SAME = "Enter your parent's or guardian's own email, not yours";

const guardianEmail = preprocess(
  blankToUndefined,
  z.optional(
    z
      .string({ error: GUARDIAN_EMAIL_INVALID })
      .check(z.trim(), z.maxLength(254, GUARDIAN_EMAIL_INVALID), z.email({ error: GUARDIAN_EMAIL_INVALID }), z.toLowerCase()),
  ),
);

export const privacyFields = {
  marketingConsent: flag(false),
  under18: flag(false),
  guardianName: optionalText(100, "Parent or guardian's name"),
  guardianEmail,
  noticeVersion: optionalText(20, "noticeVersion"),
};

/**
 * "I am under 18" asks for a guardian: name and e-mail, an e-mail that is not the sender's own. Checked once the
 * other fields pass (a form shows these messages with its next submission).
 */
export function withGuardianRule<S extends z.ZodMiniObject>(schema: S): S {
  return schema.check(
    z.superRefine((v: Record<string, unknown>, ctx) => {
      if (v.under18 !== true) return;
      if (!v.guardianName) ctx.addIssue({ code: "custom", path: ["guardianName"], message: GUARDIAN_NAME_REQUIRED, input: v.guardianName });
      if (!v.guardianEmail) ctx.addIssue({ code: "custom", path: ["guardianEmail"], message: GUARDIAN_EMAIL_REQUIRED, input: v.guardianEmail });
      else if (v.guardianEmail === v.email) ctx.addIssue({ code: "custom", path: ["guardianEmail"], message: GUARDIAN_EMAIL_SAME, input: v.guardianEmail });
    }),
  ) as S;
}

/** The notice versions a form may have shown; a version sent that is not one of them is recorded as the current one. */
export const KNOWN_NOTICE_VERSIONS: readonly string[] = [PRIVACY_NOTICE_VERSION];
export const noticeVersionShown = (sent: string | undefined) => (sent && KNOWN_NOTICE_VERSIONS.includes(sent) ? sent : PRIVACY_NOTICE_VERSION);
