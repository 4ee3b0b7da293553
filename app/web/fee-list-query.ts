import { FEE_VIEWS, type FeeView } from "~/schemas/fee-values";

/** The Fees screen's filters from its URL (so they survive reloads and work without JavaScript): view, batch, course, page. */
export function readFeeListQuery(url: URL): { view: FeeView; scheduleId?: string; course?: string; page: number } {
  const p = url.searchParams;
  const view = (FEE_VIEWS as readonly string[]).includes(p.get("view") ?? "") ? (p.get("view") as FeeView) : "overdue";
  const page = Math.min(1_000_000, Math.max(1, Number.parseInt(p.get("page") ?? "1", 10) || 1));
  const batch = (p.get("batch") ?? "").slice(0, 36) || undefined;
  const course = (p.get("course") ?? "").slice(0, 200) || undefined;
  return { view, scheduleId: batch, course, page };
}
