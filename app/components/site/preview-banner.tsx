import { PUBLICATION_STATE_LABELS, type PublicationState } from "~/schemas/values";

/**
 * A page signed-in staff see before it is public: a loader's `preview` (the course page's). `publishes` is the
 * scheduled time as the loader formatted it (Hyderabad time), so the banner needs no date code in the browser.
 */
export type Preview = { state: PublicationState; publishes: string | null };

/**
 * "Preview: this course is not public yet". The site header shows it above its bar (SiteHeader's notice, which the
 * layout takes from the course route's `handle.notice`), so the fixed header neither covers it nor is covered by it.
 */
export function PreviewBanner({ state, publishes }: Preview) {
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950">
      <strong>Preview</strong>
      {`: this course is not public yet (${PUBLICATION_STATE_LABELS[state]}${state === "scheduled" && publishes ? `, publishes ${publishes} IST` : ""}). Only signed-in staff can see this page.`}
    </div>
  );
}
