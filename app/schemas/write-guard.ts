import * as z from "zod/mini";
import { preprocess } from "./fields";

/**
 * What a staff form (or an API call) says it was drawn from: the record's `version` (a save from an older one is
 * refused, never applied over the newer change) and the form's one-time key (a repeat of the same post changes
 * nothing). Both optional: a caller that sends neither writes as before.
 */
export const writeGuardSchema = z.object({
  version: preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\d{1,9}$/.test(v.trim()) ? Number(v) : v),
    z.optional(
      z
        .int({ error: "version must be the record's version (a whole number)" })
        .check(
          z.minimum(1, "version must be the record's version (a whole number)"),
          z.maximum(999_999_999, "version must be the record's version (a whole number)"),
        ),
    ),
  ),
  formKey: z.optional(z.string().check(z.maxLength(64))),
});
export const EDIT_CONFLICT_CODE = "edit_conflict";
