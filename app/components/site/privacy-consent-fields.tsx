import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Link } from "react-router";
import { PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";

/**
 * The short privacy notice beside every public form (DPDP Act), linked to the full notice on /privacy, with the
 * separate marketing choice (never ticked for the visitor) and the notice version the form shows (hidden), which
 * the server records with the submission. Left alone, the form sends what it always sent plus that version.
 */

// Conform's field metadata is typed by the whole form; these fields are the same in every form that has them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

const SHORT = {
  enquiry: "We use these details only to answer your enquiry and follow it up, and erase them once we no longer need them.",
  contact: "We use these details only to reply to your message, and erase them once we no longer need them.",
} as const;

export const MARKETING_LABEL = "Also send me newsletters, offers of other courses and WhatsApp promotions (optional; you can withdraw any time)";

export function PrivacyConsentFields({ kind, marketing }: { kind: "enquiry" | "contact"; marketing: AnyField }) {
  return (
    <div className="space-y-3 text-sm">
      <input type="hidden" name="noticeVersion" value={PRIVACY_NOTICE_VERSION} />
      <div className="flex items-start gap-3">
        <input {...getInputProps(marketing, { type: "checkbox" })} className="mt-0.5 h-5 w-5 shrink-0 rounded border-slate-400 accent-brand-700" />
        <label htmlFor={marketing.id} className="text-slate-800">
          {MARKETING_LABEL}
        </label>
      </div>
      <p className="text-slate-700" data-testid="privacy-short-notice">
        {SHORT[kind]}{" "}
        <Link to="/privacy" className="font-semibold text-brand-800 underline underline-offset-2">
          Read our privacy notice
        </Link>{" "}
        for what we collect, why, for how long, and your rights.
      </p>
    </div>
  );
}
