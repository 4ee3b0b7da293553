import * as z from "zod/mini";
import { choice, emptyToUndefined, preprocess, requiredEmail, requiredText } from "./fields";

export const USER_ROLES = ["editor", "admin"] as const;

export const PASSWORD_MISMATCH = "New passwords do not match";

const password = (requiredMessage: string) =>
  z.string({ error: requiredMessage }).check(z.minLength(8, "Password must be at least 8 characters"), z.maxLength(128, "Password must be at most 128 characters"));

const base = {
  name: requiredText("Name is required", 100, "Name"),
  email: requiredEmail("Email is required", "Valid email is required"),
  role: preprocess((v) => (v === undefined || v === null || v === "" ? "editor" : v), choice(USER_ROLES, "Role must be admin or editor")),
};

export const userCreateSchema = z.object({
  ...base,
  password: preprocess(emptyToUndefined, password("Password is required")),
});

/** On edit an empty password is left out, so the current one stays (spec §5). */
export const userUpdateSchema = z.object({
  ...base,
  password: preprocess((v) => (v === "" || v === null ? undefined : v), z.optional(password("Password is required"))),
});

export const changePasswordSchema = z
  .object({
    currentPassword: preprocess(emptyToUndefined, z.string({ error: "Current password is required" }).check(z.maxLength(1024))),
    newPassword: preprocess(emptyToUndefined, password("New password is required")),
    confirmPassword: preprocess(emptyToUndefined, z.string({ error: "Please confirm the new password" }).check(z.maxLength(1024))),
  })
  .check(z.refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: PASSWORD_MISMATCH }));

export const USER_LOAD_FAILED = "Failed to load users. Please try again.";
export const USER_SAVE_FAILED = "Failed to save user. Please try again.";
export const PASSWORD_CHANGE_FAILED = "Failed to change password. Please check your current password.";
export const OWN_ACCOUNT_DELETE = "You cannot delete your own account";
export const USER_DELETE_FAILED = "Failed to delete user. Please try again.";
export const EMAIL_TAKEN = "A user with this email already exists";
