import * as z from "zod/mini";
import { choice, emptyToUndefined, preprocess, requiredEmail, requiredText } from "./fields";
import { oneOf, USER_ROLES } from "./values";

export const PASSWORD_MISMATCH = "New passwords do not match";
/** The spec has no word for it; the same on every screen and in the API. */
export const COMMON_PASSWORD = "This password is too common. Please choose a less common one.";

let isCommonPassword: (password: string) => boolean = () => false;
/**
 * Installs the common-password check that every new password passes through. The list (10,000 passwords) stays
 * on the server: app/infra/password.server.ts installs it when it loads, and no password is stored without that
 * module (it hashes them). In the browser nothing is installed, so the form lets such a password through and
 * shows the server's refusal on the field, as it does for a taken e-mail.
 */
export function checkCommonPasswordsWith(check: (password: string) => boolean): void {
  isCommonPassword = check;
}

export const PASSWORD_MIN_LENGTH = 8;
/** A new password: 8 to 128 characters (DESIGN.md §4.6) and not a common one; a short one is told only its length. */
const password = (requiredMessage: string) =>
  z.string({ error: requiredMessage }).check(
    z.minLength(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`, abort: true }),
    z.maxLength(128, "Password must be at most 128 characters"),
    z.refine((v: string) => !isCommonPassword(v), { message: COMMON_PASSWORD }),
  );

const base = {
  name: requiredText("Name is required", 100, "Name"),
  email: requiredEmail("Email is required", "Valid email is required"),
  role: z._default(
    preprocess((v) => (v === null || v === "" ? "editor" : v), choice(USER_ROLES, `Role must be one of ${oneOf(USER_ROLES)}`)),
    "editor",
  ),
};

export const userCreateSchema = z.object({
  ...base,
  password: preprocess(emptyToUndefined, password("Password is required")),
});

/** Given new enquiries by the round-robin (an admin's switch; left out keeps it). */
const takesEnquiries = z.optional(
  preprocess(
    (v) => (typeof v === "string" ? ["true", "on", "1", "yes"].includes(v.trim().toLowerCase()) : v),
    z.boolean({ error: "takesEnquiries must be true or false" }),
  ),
);
export const takesEnquiriesSchema = z.object({ takesEnquiries: z._default(takesEnquiries, false) });

/** On edit an empty password is left out, so the current one stays (spec §5). */
export const userUpdateSchema = z.object({
  ...base,
  takesEnquiries,
  password: preprocess((v) => (v === "" || v === null ? undefined : v), z.optional(password("Password is required"))),
  // Checked only when someone sets their own password here (DESIGN.md §4.6).
  currentPassword: preprocess(emptyToUndefined, z.optional(z.string().check(z.maxLength(1024)))),
});

const currentPassword = preprocess(emptyToUndefined, z.string({ error: "Current password is required" }).check(z.maxLength(1024)));
const newPasswordFields = {
  newPassword: preprocess(emptyToUndefined, password("New password is required")),
  confirmPassword: preprocess(emptyToUndefined, z.string({ error: "Please confirm the new password" }).check(z.maxLength(1024))),
};
const confirmation = { path: ["confirmPassword"], message: PASSWORD_MISMATCH };

/** Changing your own password: the current one is always needed (DESIGN.md §4.6). */
export const changePasswordSchema = z
  .object({ currentPassword, ...newPasswordFields })
  .check(z.refine((v) => v.newPassword === v.confirmPassword, confirmation));

/**
 * An admin setting another user's password: no current password needed (they do not know it). The API's password
 * change may send one along; it must still be text, as the document says.
 */
export const setPasswordSchema = z
  .object({ currentPassword: preprocess(emptyToUndefined, z.optional(z.string().check(z.maxLength(1024)))), ...newPasswordFields })
  .check(z.refine((v) => v.newPassword === v.confirmPassword, confirmation));

/** Edit User of your own account with a new password also asks for the current one. */
export const CURRENT_PASSWORD_REQUIRED = "Current password is required";

export const USER_LOAD_FAILED = "Failed to load users. Please try again.";
export const USER_SAVE_FAILED = "Failed to save user. Please try again.";
export const PASSWORD_CHANGE_FAILED = "Failed to change password. Please check your current password.";
export const OWN_ACCOUNT_DELETE = "You cannot delete your own account";
export const USER_DELETE_FAILED = "Failed to delete user. Please try again.";
export const EMAIL_TAKEN = "A user with this email already exists";
