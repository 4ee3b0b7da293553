import { describe, expect, it } from "vitest";
import { mailtoUrl, replySubject, telUrl, whatsappChatUrl } from "./contact-links";

describe("contact links", () => {
  it("builds a WhatsApp link from the phone's digits, adding India's 91 to a 10-digit number", () => {
    expect(whatsappChatUrl("98765 43210")).toBe("https://wa.me/919876543210");
    expect(whatsappChatUrl("+91 98765-43210")).toBe("https://wa.me/919876543210");
    expect(whatsappChatUrl("(987) 654-3210")).toBe("https://wa.me/919876543210");
    expect(whatsappChatUrl("---")).toBeNull();
  });

  it("answers a contact query with Re: its subject, or a fixed subject when it had none", () => {
    expect(replySubject("Weekend batch")).toBe("Re: Weekend batch");
    expect(replySubject("  ")).toBe("Your contact query");
    expect(replySubject(null)).toBe("Your contact query");
    expect(mailtoUrl("ravi@example.com", "Re: Fees & dates?")).toBe("mailto:ravi@example.com?subject=Re%3A%20Fees%20%26%20dates%3F");
    expect(mailtoUrl("ravi@example.com")).toBe("mailto:ravi@example.com");
  });

  it("makes tel: links only when there is a number", () => {
    expect(telUrl("+91 98765 43210")).toBe("tel:+919876543210");
    expect(telUrl("98765 43210")).toBe("tel:+919876543210");
    expect(telUrl("040 2345 6789")).toBe("tel:04023456789");
    expect(telUrl("")).toBeNull();
    expect(telUrl(null)).toBeNull();
  });
});
