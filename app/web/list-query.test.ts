import { describe, expect, it } from "vitest";
import { listHref, readListQuery, withParam } from "./list-query";

const STATUSES = ["new", "contacted"] as const;

describe("readListQuery", () => {
  it("reads a known status, a trimmed search and the page", () => {
    expect(readListQuery(new URL("http://x/a?status=new&q=%20ravi%20&page=3"), STATUSES)).toEqual({ status: "new", q: "ravi", page: 3 });
  });

  it("ignores an unknown status and a page that is not a positive number", () => {
    expect(readListQuery(new URL("http://x/a?status=deleted&page=-2"), STATUSES)).toEqual({ status: undefined, q: "", page: 1 });
    expect(readListQuery(new URL("http://x/a?page=abc"), STATUSES).page).toBe(1);
  });
});

describe("listHref and withParam", () => {
  it("keep only the list's own parameters", () => {
    expect(listHref("/admin/enquiries", "?status=new&q=a&page=2&_data=x")).toBe("/admin/enquiries?status=new&q=a&page=2");
    expect(listHref("/admin/enquiries", "")).toBe("/admin/enquiries");
  });

  it("keep the audit log's filters, so the jump back to the last page keeps them too", () => {
    const search = "?user=u-1&entityType=enquiry&from=2026-03-01&to=2026-03-31&page=9&x=1";
    expect(listHref("/admin/audit-log", search)).toBe("/admin/audit-log?page=9&user=u-1&entityType=enquiry&from=2026-03-01&to=2026-03-31");
    expect(withParam("/admin/audit-log", search, "page", 2)).toBe("/admin/audit-log?page=2&user=u-1&entityType=enquiry&from=2026-03-01&to=2026-03-31");
    expect(withParam("/admin/audit-log", search, "entityType", "course")).toBe("/admin/audit-log?user=u-1&entityType=course&from=2026-03-01&to=2026-03-31");
  });

  it("start again at page 1 when the tab or search changes", () => {
    expect(withParam("/l", "?status=new&page=4", "status", "closed")).toBe("/l?status=closed");
    expect(withParam("/l", "?status=new&page=4", "status", undefined)).toBe("/l");
    expect(withParam("/l", "?q=x", "page", 2)).toBe("/l?q=x&page=2");
    expect(withParam("/l", "?q=x&page=2", "page", 1)).toBe("/l?q=x");
  });
});
