import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { CloseIcon } from "~/components/ui/icons";
import { enquiryHref } from "./course-card";
import type { SyllabusView } from "~/web/public-views";

/**
 * The syllabus of one course, opened by ?syllabus=<slug>. The server renders it open, so it shows without
 * JavaScript (closing is a link back to the list). With JavaScript it becomes a modal dialog: focus moves in,
 * stays in, Escape and the backdrop close it, and focus returns to the button that opened it.
 */
export function SyllabusDialog({ syllabus, closeHref }: { syllabus: SyllabusView; closeHref: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLAnchorElement>(null);
  const navigate = useNavigate();
  const close = () => navigate(closeHref, { preventScrollReset: true });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    // Rendered with `open` (non-modal) for the no-JavaScript case; reopen as a modal to get the focus trap and Escape.
    if (dialog.open) dialog.close();
    dialog.showModal();
    closeRef.current?.focus();
    return () => {
      const target = opener?.isConnected ? opener : document.querySelector<HTMLElement>(`[data-syllabus-trigger="${CSS.escape(syllabus.slug)}"]`);
      target?.focus();
    };
  }, [syllabus.slug]);

  return (
    <dialog
      ref={ref}
      open
      aria-labelledby="syllabus-title"
      className="syllabus-dialog fixed inset-0 z-50 m-0 flex h-full max-h-none w-full max-w-none items-center justify-center bg-slate-950/70 p-3 sm:p-6"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="flex max-h-full w-full max-w-3xl flex-col overflow-hidden rounded-2xl bg-white shadow-2xl">
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 sm:px-6">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-accent-600">Course Syllabus</p>
            <h2 id="syllabus-title" className="mt-1 text-xl font-bold text-slate-900 sm:text-2xl">
              {syllabus.title}
            </h2>
          </div>
          <Link
            ref={closeRef}
            to={closeHref}
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              close();
            }}
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-2xl text-slate-700 hover:bg-slate-100"
            aria-label="Close syllabus"
          >
            <CloseIcon />
          </Link>
        </div>
        {/* Focusable so keyboard users can scroll a long syllabus. */}
        <div className="overflow-y-auto px-5 py-5 sm:px-6" tabIndex={0} role="region" aria-label="Syllabus details">
          {syllabus.html ? (
            <div className="syllabus-content" dangerouslySetInnerHTML={{ __html: syllabus.html }} />
          ) : (
            <p className="py-8 text-center text-slate-700">Detailed syllabus will be available soon.</p>
          )}
        </div>
        <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 px-5 py-4 sm:px-6">
          {syllabus.file ? (
            <a href={syllabus.file} download={syllabus.fileName} className={buttonClass("outline")}>
              Download Syllabus
            </a>
          ) : null}
          <Link to={enquiryHref(syllabus.title)} className={buttonClass("accent")}>
            Enroll Now
          </Link>
        </div>
      </div>
    </dialog>
  );
}
