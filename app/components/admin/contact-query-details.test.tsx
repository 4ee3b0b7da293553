import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { ContactQuery } from "~/models/contact-query.server";
import { ContactQueryDetails } from "./contact-query-details";

const query: ContactQuery = {
  id: "q1",
  name: "Sana Shaikh",
  email: "sana@example.com",
  phone: null,
  subject: null,
  message: "Hello",
  status: "replied",
  createdAt: "2027-01-05T18:30:00.000Z",
  version: 1,
  updatedBy: null,
  updatedAt: "2027-01-05T18:30:00.000Z",
  under18: false,
  guardianName: null,
  guardianEmail: null,
  guardianConsentAt: null,
  marketingConsent: false,
  noticeVersion: "",
};

function render(element: React.ReactElement) {
  const Stub = createRoutesStub([{ path: "/admin/contact-queries/:id", Component: () => element }]);
  return renderToStaticMarkup(<Stub initialEntries={["/admin/contact-queries/q1"]} />);
}

describe("contact query details", () => {
  it("after Reply via Email without JavaScript, offers the mail program with the prepared subject", () => {
    const html = render(<ContactQueryDetails query={query} replyReady />);
    expect(html).toMatch(/<a href="mailto:sana@example.com\?subject=Your%20contact%20query"[^>]*>Open your e-mail app<\/a>/);
    const withSubject = render(<ContactQueryDetails query={{ ...query, subject: "Weekend batch" }} replyReady />);
    expect(withSubject).toMatch(/<a href="mailto:sana@example.com\?subject=Re%3A%20Weekend%20batch"[^>]*>Open your e-mail app<\/a>/);
  });

  it("does not offer it otherwise, and shows the date and time in Hyderabad", () => {
    const html = render(<ContactQueryDetails query={query} />);
    expect(html).not.toContain("Open your e-mail app");
    expect(html).toContain("Jan 6, 2027, 12:00 AM");
  });
});
