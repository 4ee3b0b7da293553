import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ContactQueryList } from "./contact-query-list";
import { EnquiryList } from "./enquiry-list";
import { ReviewList } from "./review-list";
import { ScheduleList } from "./schedule-list";

// The spec's empty messages (§2), word for word. The e2e database always holds rows, so they are checked here.
describe("empty back-office lists", () => {
  it.each([
    ["schedules", <ScheduleList schedules={[]} search="" />, "No schedules found"],
    ["reviews", <ReviewList reviews={[]} search="" />, "No reviews found for the selected filter."],
    ["enquiries", <EnquiryList enquiries={[]} search="" />, "No enquiries found for the selected filter."],
    ["contact queries", <ContactQueryList queries={[]} search="" />, "No contact queries found for the selected filter."],
  ])("%s", (_name, element, message) => {
    const html = renderToStaticMarkup(element);
    expect(html).toContain(`>${message}</p>`);
    expect(html).not.toContain("<table");
  });
});
