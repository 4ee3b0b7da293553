import { describe, expect, it } from "vitest";
import { ensureAdmin } from "../../server/seed";
import { getUserWithSecret } from "~/models/user.server";
import { verifyPassword } from "~/infra/password.server";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";

setupTestDatabase();

// The quick start: `npm start` with nothing configured makes admin@localhost with a printed password.
describe("the first admin", () => {
  it("is admin@localhost with a one-time password when nothing is configured, and is made once", async () => {
    const lines: string[] = [];
    const made = await ensureAdmin({}, (line) => lines.push(line));
    expect(made?.email).toBe("admin@localhost");
    const admin = await getUserWithSecret({ email: "admin@localhost" });
    expect(admin).toMatchObject({ role: "admin", name: "Administrator" });
    expect(await verifyPassword(admin!.passwordHash, made!.password!)).toBe(true);
    expect(lines.join("\n")).toContain(made!.password!);
    expect(await ensureAdmin({ email: "other@example.com", password: "another-password" }, () => {})).toBeNull();
  });
});
