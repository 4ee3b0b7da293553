import { z } from "zod";
import { choice, requiredEmail, requiredText } from "./fields";

export const USER_ROLES = ["editor", "admin"] as const;

const password = z
  .string({ error: "Password is required" })
  .min(8, "Password must be at least 8 characters")
  .max(128, "Password must be at most 128 characters");

const base = {
  name: requiredText("Name is required", 100, "Name"),
  email: requiredEmail("Email is required", "Valid email is required"),
  role: z.preprocess((v) => (v === undefined || v === null || v === "" ? "editor" : v), choice(USER_ROLES, "Role must be admin or editor")),
};

export const userCreateSchema = z.object({
  ...base,
  password: z.preprocess((v) => (v === "" ? undefined : v), password),
});

/** On edit an empty password is left out, so the current one stays (spec §5). */
export const userUpdateSchema = z.object({
  ...base,
  password: z.preprocess((v) => (v === "" || v === null ? undefined : v), password.optional()),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z.preprocess((v) => (v === "" ? undefined : v), z.string({ error: "Current password is required" }).max(1024)),
    newPassword: z.preprocess((v) => (v === "" ? undefined : v), z.string({ error: "New password is required" }).min(8, "Password must be at least 8 characters").max(128, "Password must be at most 128 characters")),
    confirmPassword: z.preprocess((v) => (v === "" ? undefined : v), z.string({ error: "Please confirm the new password" }).max(1024)),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "New passwords do not match" });

export const USER_LOAD_FAILED = "Failed to load users. Please try again.";
export const USER_SAVE_FAILED = "Failed to save user. Please try again.";
export const PASSWORD_MISMATCH = "New passwords do not match";
export const PASSWORD_CHANGE_FAILED = "Failed to change password. Please check your current password.";
export const OWN_ACCOUNT_DELETE = "You cannot delete your own account";
export const USER_DELETE_FAILED = "Failed to delete user. Please try again.";
export const EMAIL_TAKEN = "A user with this email already exists";
