import * as z from "zod/mini";
import { choice, emptyToUndefined, preprocess, requiredEmail, requiredText } from "./fields";
import { oneOf, USER_ROLES } from "./values";



export const PASSWORD_MISMATCH = "New passwords do not match";

const password = (requiredMessage: string) =>
  z.string({ error: requiredMessage }).check(z.minLength(8, "Password must be at least 8 characters"), z.maxLength(128, "Password must be at most 128 characters"));

const base = {
  name: requiredText("Name is required", 100, "Name"),
  email: requiredEmail("Email is required", "Valid email is required"),
  role: z._default(preprocess((v) => (v === null || v === "" ? "editor" : v), choice(USER_ROLES, `Role must be one of ${oneOf(USER_ROLES)}`)), "editor"),
};

export const userCreateSchema = z.object({
  ...base,
  password: preprocess(emptyToUndefined, password("Password is required")),
});

/** On edit an empty password is left out, so the current one stays (spec §5). */
export const userUpdateSchema = z.object({
  ...base,
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
