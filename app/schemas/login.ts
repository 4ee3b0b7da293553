import { z } from "zod";
import { requiredText } from "./fields";

export const loginSchema = z.object({
  email: requiredText("Email is required", 254, "Email"),
  password: z.preprocess((v) => (v === "" ? undefined : v), z.string({ error: "Password is required" }).min(1, "Password is required").max(1024, "Password is too long")),
});
