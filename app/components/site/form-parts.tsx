import { useEffect, useRef, type ReactNode } from "react";
import { Link, useMatches } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { CheckIcon } from "~/components/ui/icons";

/** The thank-you panel that replaces a form after a stored submission; focused so screen readers announce it. */
export function SuccessPanel({
  title,
  children,
  resetLabel,
  resetHref,
  onReset,
  homeLink,
}: {
  title: string;
  children: ReactNode;
  resetLabel: string;
  /** Where the reset control goes without JavaScript (a fresh copy of the page). */
  resetHref: string;
  onReset?: () => void;
  /** /enquiry offers Return to Homepage instead of a reset. */
  homeLink?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} role="status" className="rounded-2xl border border-green-200 bg-green-50 px-6 py-10 text-center">
      <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-green-600 text-2xl text-white">
        <CheckIcon />
      </span>
      <h3 className="mt-4 text-xl font-bold text-green-900">{title}</h3>
      <div className="mt-2 text-green-900">{children}</div>
      {homeLink ? (
        <Link to="/" className={buttonClass("primary", "mt-6")}>
          Return to Homepage
        </Link>
      ) : (
        <a
          href={resetHref}
          className={buttonClass("primary", "mt-6")}
          onClick={(event) => {
            if (!onReset) return;
            event.preventDefault();
            onReset();
          }}
        >
          {resetLabel}
        </a>
      )}
    </div>
  );
}

export type SummaryItem = { id: string; message: string };

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
export function ErrorSummary({ id, items, formError }: { id: string; items: SummaryItem[]; formError?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const title = usePageTitle();
  const key = `${formError ?? ""}|${items.map((i) => `${i.id}:${i.message}`).join("|")}`;
  const shown = items.length > 0 || Boolean(formError);
  useEffect(() => {
    if (!shown) return;
    ref.current?.focus();
    if (title && !document.title.startsWith("Error: ")) document.title = `Error: ${title}`;
    return () => {
      if (title) document.title = title;
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
          <li key={item.id}>
            <a href={`#${item.id}`} className="font-semibold text-red-800 underline underline-offset-2">
              {item.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SubmitButton({ pending, label, pendingLabel }: { pending: boolean; label: string; pendingLabel: string }) {
  return (
    <button type="submit" disabled={pending} aria-disabled={pending} className={buttonClass("accent", "w-full py-3 text-base sm:w-auto")}>
      {pending ? (
        <>
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" aria-hidden="true" />
          {pendingLabel}
        </>
      ) : (
        label
      )}
    </button>
  );
}
