import { useEffect, useRef } from "react";
import { useMatches } from "react-router";

/*
 * Shared by the public forms and the back office's (issue 37.10: a refused admin save showed no summary and its
 * message sat off screen).
 */

/** One line of the summary: a field's message and the id of that field (a link to it), or a message alone. */
export type SummaryItem = { id?: string; message: string };

/** The page's own title, from the leaf route's meta (the public loaders return it as `seo`). */
function usePageTitle(): string {
  const matches = useMatches();
  for (const m of [...matches].reverse()) {
    const seo = (m.data as { seo?: { title?: string }[] } | undefined)?.seo;
    const title = seo?.find((d) => typeof d.title === "string")?.title;
    if (title) return title;
  }
  return "";
}

/**
 * GOV.UK's error summary at the top of a refused form: "There is a problem" and a link to each field's message,
 * in the form's order, plus a message for the whole form (a limit, a failed save). It takes focus when it appears
 * (after a submit with JavaScript; without, the page comes back scrolled to the form), and the page's title starts
 * with "Error: " while it shows, so a screen reader hears it first.
 */
export function ErrorSummary({ id, items, formError }: { id: string; items: SummaryItem[]; formError?: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const title = usePageTitle();
  const key = `${formError ?? ""}|${items.map((i) => `${i.id}:${i.message}`).join("|")}`;
  const shown = items.length > 0 || Boolean(formError);
  useEffect(() => {
    if (!shown) return;
    ref.current?.focus();
    // A public page's title from its loader; a staff screen's (no such data) as the page shows it.
    const base = title || document.title.replace(/^Error: /, "");
    if (base && !document.title.startsWith("Error: ")) document.title = `Error: ${base}`;
    return () => {
      if (base) document.title = base;
    };
  }, [key, shown, title]);
  if (!shown) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby={`${id}-title`}
      className="rounded-lg border-2 border-red-700 bg-white p-4 focus:outline-3 focus:outline-accent-500"
    >
      <h2 id={`${id}-title`} className="text-lg font-bold text-red-800">
        There is a problem
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {formError ? <li className="text-red-800">{formError}</li> : null}
        {items.map((item) => (
          <li key={`${item.id ?? ""}:${item.message}`}>
            {item.id ? (
              <a href={`#${item.id}`} className="font-semibold text-red-800 underline underline-offset-2">
                {item.message}
              </a>
            ) : (
              <span className="font-semibold text-red-800">{item.message}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
