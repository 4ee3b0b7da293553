import { beforeAll, describe, expect, it } from "vitest";
import { COMMON_PASSWORD } from "~/schemas/user";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";

// Over the built server, so the list is read as production reads it (from the bundle, on the first check).
const server = startApiServer();
const api = apiClient(server);

let admin: string;
beforeAll(async () => {
  admin = await api.login(ADMIN.email, ADMIN.password);
});
const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe("the API refuses a common password with a 400 and the message on its field", () => {
  it("POST /api/auth/register", async () => {
    const email = unique("common");
    const r = await api.post("/api/auth/register", { token: admin, json: { name: "Common Person", email, password: "PASSWORD1" } });
    expect(r.status).toBe(400);
    expect(r.body.error.fields).toEqual({ password: COMMON_PASSWORD });
    expect((await api.post("/api/auth/login", { json: { email, password: "PASSWORD1" } })).status).toBe(401);
    expect((await api.post("/api/auth/register", { token: admin, json: { name: "Common Person", email, password: "fine-password-7" } })).status).toBe(201);
  });

  it("PUT /api/users/{id}: an admin's edit with a new password, and your own password change", async () => {
    const email = unique("editor");
    const made = await api.post("/api/auth/register", { token: admin, json: { name: "Eddie", email, password: "editor-password-1" } });
    const id = made.body.data.id;

    const edit = await api.put(`/api/users/${id}`, { token: admin, json: { name: "Eddie", email, password: "iloveyou" } });
    expect(edit.status).toBe(400);
    expect(edit.body.error.fields).toEqual({ password: COMMON_PASSWORD });

    const token = await api.login(email, "editor-password-1");
    const own = await api.put(`/api/users/${id}`, { token, json: { currentPassword: "editor-password-1", password: "Trustno1" } });
    expect(own.status).toBe(400);
    expect(own.body.error.fields).toEqual({ password: COMMON_PASSWORD });
    const named = await api.put(`/api/users/${id}`, {
      token,
      json: { currentPassword: "editor-password-1", newPassword: "qwerty123", confirmPassword: "qwerty123" },
    });
    expect(named.status).toBe(400);
    expect(named.body.error.fields).toEqual({ newPassword: COMMON_PASSWORD });

    // Nothing changed: the old password still signs in.
    expect((await api.login(email, "editor-password-1")).length).toBeGreaterThan(20);
  });
});
