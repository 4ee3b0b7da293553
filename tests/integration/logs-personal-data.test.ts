import { describe, expect, it } from "vitest";
import { ADMIN, apiClient, startApiServer } from "../helpers/api-server";

/**
 * What the server prints (access log, outbox failures) while a visitor's enquiry is handled and its notifications
 * fail: no name, no e-mail address, no webhook path. Mail and the webhook point at a closed port, so every
 * delivery fails and is logged.
 */
const HOOK_PATH = "/hooks/T0SECRET/B0PATH";
const server = startApiServer({
  SMTP_URL: "smtp://outbox:pass@127.0.0.1:9",
  WEBHOOK_URL: `http://127.0.0.1:9${HOOK_PATH}?token=hook-token-123`,
  WEBHOOK_SECRET: "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64"),
  NOTIFY_EMAIL: "office@example.com",
});
const api = apiClient(server);

describe("the server's log", () => {
  it("names no visitor, no address and no webhook path, while deliveries of their enquiry fail", async () => {
    const course = (await api.get("/api/courses")).body.data[0].title as string;
    const made = await api.post("/api/enquiries", {
      json: {
        fullName: "Zarina Quasimodo",
        email: "zarina.quasimodo@visitor-mail.example",
        phone: "9812345678",
        preferredCourse: course,
        preferredMode: "online",
      },
    });
    expect(made.status).toBe(201);
    const token = await api.login(ADMIN.email, ADMIN.password);
    expect((await api.get("/api/enquiries?q=Zarina%20Quasimodo", { token })).status).toBe(200);
    const deadline = Date.now() + 20_000;
    // Both lines: the access log writes a request's line once its answer is finished, which may be after the client has it.
    const logged = () => /Outbox: Webhook/.test(server.output()) && /GET \/api\/enquiries\?/.test(server.output());
    while (!logged() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const log = server.output();
    expect(log).toMatch(/Outbox: Webhook \S+ \(enquiry\.created\) to http:\/\/127\.0\.0\.1:9\/…/);
    expect(log).toMatch(/\/api\/enquiries\?…/);
    for (const secret of ["Zarina", "Quasimodo", "zarina.quasimodo", "T0SECRET", "hook-token-123"]) expect(log, secret).not.toContain(secret);
  });
});
