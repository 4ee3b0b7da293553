import { createRequire } from "node:module";
import { parseWithSchema } from "~/web/form-submission";
import { loginSchema } from "~/schemas/login";
import { changePasswordSchema, COMMON_PASSWORD, setPasswordSchema, userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { describe, expect, it } from "vitest";
import { isCommonPassword } from "./password.server";

const listLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("@zxcvbn-ts/language-common"));

function form(entries: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(entries)) fd.append(k, v);
  return fd;
}
function formErrors(schema: Parameters<typeof parseWithSchema>[1], entries: Record<string, string>) {
  const s = parseWithSchema(form(entries), schema);
  return s.status === "success" ? {} : Object.fromEntries(Object.entries(s.error ?? {}).map(([k, v]) => [k, v?.[0]]));
}

// Common ones of every kind the list holds, and at its far end (the 10,000th of 8 characters or more is near rank 27,667).
const COMMON = [
  "password",
  "12345678",
  "iloveyou",
  "trustno1",
  "qwerty123",
  "password1",
  "passw0rd",
  "changeme",
  "letmein1",
  "welcome1",
  "admin123",
  "P@ssw0rd",
  "Welcome123",
];
const UNCOMMON = ["long-enough-password", "correct horse battery staple", "Zq8!vR2#pL0w", "api-Admin-password-1", "editor-password-1"];

describe("isCommonPassword", () => {
  it("reads the list only when first asked, once", () => {
    // Importing this module (as every server start does) has not read it.
    expect(listLoaded()).toBe(false);
    expect(isCommonPassword("password")).toBe(true);
    expect(listLoaded()).toBe(true);
    const start = performance.now();
    for (let i = 0; i < 1000; i++) isCommonPassword(`not-common-${i}`);
    expect(performance.now() - start).toBeLessThan(200);
  });

  it("knows the most common passwords, in any mix of capitals", () => {
    for (const p of COMMON) {
      expect(isCommonPassword(p), p).toBe(true);
      expect(isCommonPassword(p.toUpperCase()), p.toUpperCase()).toBe(true);
      expect(isCommonPassword(p[0].toUpperCase() + p.slice(1)), p).toBe(true);
    }
  });

  it("lets other passwords through, including the ones the tests and demo accounts use", () => {
    for (const p of UNCOMMON) expect(isCommonPassword(p), p).toBe(false);
    // Near misses are not on the list.
    expect(isCommonPassword("password ")).toBe(false);
    expect(isCommonPassword("pass-word-9261")).toBe(false);
  });
});

describe("every form that sets a password refuses a common one, with the same message on the field", () => {
  it("Add User, and Edit User with a new password", () => {
    for (const password of ["Password1", "iloveyou", "ADMIN123"]) {
      expect(formErrors(userCreateSchema, { name: "A", email: "a@b.co", password }), password).toEqual({ password: COMMON_PASSWORD });
      expect(formErrors(userUpdateSchema, { name: "A", email: "a@b.co", password }), password).toEqual({ password: COMMON_PASSWORD });
      expect(userCreateSchema.safeParse({ name: "A", email: "a@b.co", password }).error?.issues.map((i) => i.message)).toEqual([COMMON_PASSWORD]);
    }
    expect(formErrors(userCreateSchema, { name: "A", email: "a@b.co", password: "long-enough-password" })).toEqual({});
    // An empty password on edit still keeps the current one.
    expect(formErrors(userUpdateSchema, { name: "A", email: "a@b.co", password: "" })).toEqual({});
  });

  it("Change Password, your own and another user's", () => {
    const change = { currentPassword: "old-password-1", newPassword: "trustno1", confirmPassword: "trustno1" };
    expect(formErrors(changePasswordSchema, change)).toEqual({ newPassword: COMMON_PASSWORD });
    expect(formErrors(setPasswordSchema, change)).toEqual({ newPassword: COMMON_PASSWORD });
    expect(formErrors(changePasswordSchema, { ...change, newPassword: "new-password-123", confirmPassword: "new-password-123" })).toEqual({});
  });

  it("a short one is told only that it is short; a common one of 8 or more that it is common", () => {
    expect(formErrors(userCreateSchema, { name: "A", email: "a@b.co", password: "123456" })).toEqual({ password: "Password must be at least 8 characters" });
    expect(userCreateSchema.safeParse({ name: "A", email: "a@b.co", password: "qwerty" }).error?.issues.map((i) => i.message)).toEqual([
      "Password must be at least 8 characters",
    ]);
    expect(userCreateSchema.safeParse({ name: "A", email: "a@b.co", password: "x".repeat(129) }).error?.issues.map((i) => i.message)).toEqual([
      "Password must be at most 128 characters",
    ]);
  });

  it("signing in with a common password is not refused: accounts made before the rule can still sign in", () => {
    expect(loginSchema.safeParse({ email: "a@b.co", password: "password" }).success).toBe(true);
  });
});
