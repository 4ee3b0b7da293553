import type { EnquiryListQuery } from "~/services/enquiry-lists.server";
import { DELIVERY_MODES, ENQUIRY_FORMS, ENQUIRY_SORTS, ENQUIRY_STATUSES, FOLLOW_UP_FILTERS, type FollowUpFilter } from "~/schemas/values";
import { cleanText, isCalendarDate } from "~/schemas/fields";
import { readListQuery } from "./list-query";

/** The enquiry list's filters as they sit in the screen's URL (and in the filter form). */
export const ENQUIRY_FILTER_PARAMS = ["assignee", "followUp", "course", "batch", "mode", "source", "form", "from", "to"] as const;
export type EnquiryFilterParam = (typeof ENQUIRY_FILTER_PARAMS)[number];

/**
 * The Manage Enquiries URL as a list query for the service. A value that is not one the form offers (an edited
 * URL) is left out rather than failing the screen; `values` is what the filter form shows.
 */
export function readEnquiryListQuery(url: URL): { query: EnquiryListQuery; values: Partial<Record<EnquiryFilterParam, string>> } {
  const { status, q, page } = readListQuery(url, ENQUIRY_STATUSES);
  const values: Partial<Record<EnquiryFilterParam, string>> = {};
  for (const key of ENQUIRY_FILTER_PARAMS) {
    // Cleaned like any text: the filter form shows it again.
    const value = cleanText(url.searchParams.get(key) ?? "", false)
      .trim()
      .slice(0, 200);
    if (value) values[key] = value;
  }
  const pick = <T extends string>(value: string | undefined, allowed: readonly T[]) =>
    (allowed as readonly string[]).includes(value ?? "") ? (value as T) : undefined;
  const day = (value: string | undefined) => (value && isCalendarDate(value) ? value : undefined);
  const query: EnquiryListQuery = {
    page,
    status,
    q,
    assignee: values.assignee && /^[\w-]{1,36}$/.test(values.assignee) ? values.assignee : undefined,
    followUp: pick<FollowUpFilter>(values.followUp, FOLLOW_UP_FILTERS),
    course: values.course,
    batch: values.batch && /^[\w-]{1,36}$/.test(values.batch) ? values.batch : undefined,
    mode: pick(values.mode, DELIVERY_MODES),
    source: values.source,
    form: pick(values.form, ENQUIRY_FORMS),
    from: day(values.from),
    to: day(values.to),
    sort: pick(url.searchParams.get("sort") ?? undefined, ENQUIRY_SORTS),
    view: url.searchParams.get("view") === "queue" ? "queue" : undefined,
  };
  return { query, values };
}
