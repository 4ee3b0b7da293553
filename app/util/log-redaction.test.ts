import { describe, expect, it } from "vitest";
import { emailForLog, redactForLog, urlForLog } from "./log-redaction";

describe("log lines without personal data", () => {
  it("keep only a webhook URL's origin", () => {
    expect(urlForLog("https://hooks.example.com/T000/B000/XXXXsecret?token=abc")).toBe("https://hooks.example.com/…");
    expect(urlForLog("https://user:pass@hooks.example.com/x")).toBe("https://hooks.example.com/…");
    expect(urlForLog("not a url")).toBe("a URL");
  });

  it("keep only an address's domain", () => {
    expect(emailForLog("priya.sharma@gmail.com")).toBe("…@gmail.com");
  });

  it("cut both down inside an error message", () => {
    const line = redactForLog("550 5.1.1 <priya.sharma@gmail.com>: Recipient address rejected; POST https://user:pw@hooks.example.com/secret/path?x=1 failed");
    expect(line).toBe("550 5.1.1 <…@gmail.com>: Recipient address rejected; POST https://hooks.example.com/… failed");
    expect(line).not.toMatch(/priya|secret|pw@/);
  });
});
