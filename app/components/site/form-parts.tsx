import { useEffect, useRef, type ReactNode } from "react";
import { Link } from "react-router";
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

export { ErrorSummary, type SummaryItem } from "~/components/ui/error-summary";

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
