import { useEffect, useId, useLayoutEffect, useRef } from "react";
import { Link, useLocation, useNavigate } from "react-router";

/**
 * The frame of a child route such as /admin/courses/new. The server always renders an open,
 * non-modal <dialog> that sits in the normal page flow, so without JavaScript the URL is a plain page.
 * Once the browser runs the code, the same element (nothing remounts, typed values stay) is
 * re-opened with showModal(): the browser then traps focus, makes the list behind it inert and
 * turns Escape into a "cancel" event, which we answer by going back to the list.
 */
export function DialogRoute({
  title,
  backTo,
  children,
  size = "md",
  description,
  focusKey,
}: {
  title: string;
  /** Where Cancel, X and Escape go: the list, keeping its search params. */
  backTo: string;
  children: React.ReactNode;
  size?: "sm" | "md" | "lg";
  description?: string;
  /**
   * Details rather than a form: focus goes to the title (not the first field), and again whenever this key changes
   * (another record opened in the same dialog: a duplicate's link, Next in queue), so a screen reader hears which.
   */
  focusKey?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const titleId = useId();

  // Before paint, so a client-side navigation never shows the in-flow version for a frame.
  useIsomorphicLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.matches(":modal")) return;
    if (dialog.open) dialog.close();
    dialog.showModal();
    // Start in the form rather than on the close button; details start at the confirmation of the write that opened
    // them (Save and open next: DialogFlash), else at their title.
    if (focusKey !== undefined)
      (dialog.querySelector<HTMLElement>("[data-dialog-focus]") ?? dialog.querySelector<HTMLElement>(`#${CSS.escape(titleId)}`))?.focus();
    else dialog.querySelector<HTMLElement>("[autofocus], input:not([type=hidden]), select, textarea")?.focus();
    // No close() on unmount: React removes the element, which leaves the top layer by itself. Closing it
    // first would blur the focused field while the form is still in the page, and conform's validate-on-blur
    // would then submit that form natively after React let go of it.
  }, []);

  // Another record in the same open dialog: back to its title, and to the top.
  const shownKey = useRef(focusKey);
  useEffect(() => {
    if (focusKey === undefined || shownKey.current === focusKey) return;
    shownKey.current = focusKey;
    const dialog = ref.current;
    dialog?.scrollTo({ top: 0 });
    (dialog?.querySelector<HTMLElement>("[data-dialog-focus]") ?? dialog?.querySelector<HTMLElement>(`#${CSS.escape(titleId)}`))?.focus();
  }, [focusKey, titleId]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault();
      navigate(backTo, { preventScrollReset: true });
    };
    dialog.addEventListener("cancel", onCancel);
    return () => dialog.removeEventListener("cancel", onCancel);
  }, [backTo, navigate]);

  const width = size === "sm" ? "[&:modal]:max-w-md" : size === "lg" ? "[&:modal]:max-w-4xl" : "[&:modal]:max-w-2xl";
  return (
    <dialog
      ref={ref}
      open
      aria-labelledby={titleId}
      className={`static m-0 mb-8 w-full max-w-none rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-sm [&:modal]:fixed [&:modal]:inset-0 [&:modal]:m-auto [&:modal]:max-h-[calc(100dvh-2rem)] [&:modal]:w-[calc(100%-1.5rem)] [&:modal]:overflow-y-auto [&:modal]:shadow-2xl backdrop:bg-slate-900/60 ${width}`}
    >
      <div className="sticky top-0 z-10 flex items-start justify-between gap-4 border-b border-slate-200 bg-white px-5 py-4">
        <div>
          <h2 id={titleId} tabIndex={focusKey !== undefined ? -1 : undefined} className="text-lg font-bold text-brand-900 focus:outline-none">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
        </div>
        <Link to={backTo} preventScrollReset className="-m-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800" aria-label="Close">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
            <path d="M5.3 4 10 8.7 14.7 4 16 5.3 11.3 10l4.7 4.7-1.3 1.3-4.7-4.7L5.3 16 4 14.7 8.7 10 4 5.3 5.3 4Z" />
          </svg>
        </Link>
      </div>
      <div className="px-5 py-5">{children}</div>
    </dialog>
  );
}

const useIsomorphicLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** The list URL a dialog goes back to: the parent path with the current search params (tab, page, filters). */
export function useBackTo(listPath: string): string {
  const { search } = useLocation();
  return `${listPath}${search}`;
}
