import * as z from "zod/mini";
import { emptyToUndefined, preprocess, requiredText } from "./fields";

export const loginSchema = z.object({
  email: requiredText("Email is required", 254, "Email"),
  password: preprocess(
    emptyToUndefined,
    z.string({ error: "Password is required" }).check(z.minLength(1, "Password is required"), z.maxLength(1024, "Password is too long")),
  ),
});

/** The one message for any failed sign-in: it never says whether the e-mail exists (spec §8). */
export const LOGIN_FAILED = "Invalid credentials or server error. Please try again.";
