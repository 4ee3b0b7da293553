import { useMatches, useRouteLoaderData } from "react-router";
import { ErrorBanner, NoticeBanner } from "./error-banner";

type LayoutData = { flash: { kind: "error" | "notice"; message: string; at?: string } | null };

/**
 * The one-time message of the last write, shown inside a details dialog too: with JavaScript the dialog covers
 * the admin frame's banner, and the write came back to this dialog. A message that belongs to one section (a call
 * logged, a note added) is shown there instead, by SectionFlash.
 */
export function DialogFlash({ anchor = false }: { anchor?: boolean }) {
  const flash = useRouteLoaderData<LayoutData>("routes/admin")?.flash;
  if (!flash || flash.at) return null;
  const banner = flash.kind === "error" ? <ErrorBanner message={flash.message} className="mb-4" /> : <NoticeBanner message={flash.message} className="mb-4" />;
  if (!anchor) return banner;
  // A write that opened another record (Save and open next) lands here (#saved): without JavaScript the browser
  // scrolls to it and focuses it, with it the dialog puts focus here instead of on its title (DialogRoute).
  return (
    <div id={SAVED_ANCHOR} tabIndex={-1} data-dialog-focus className="scroll-mt-4 focus:outline-none">
      {banner}
    </div>
  );
}

/** The fragment a redirect to another record uses so the page opens on its confirmation. */
export const SAVED_ANCHOR = "saved";

/**
 * The last write's message beside the form that made it (the section `at`), where the eyes of the person who
 * pressed Save are: without JavaScript the page comes back scrolled to that section (#at), with it the dialog stays
 * where it was. The live region is always there, so a screen reader announces the message when it appears.
 */
export function SectionFlash({ at, className = "" }: { at: string; className?: string }) {
  const flash = useRouteLoaderData<LayoutData>("routes/admin")?.flash;
  const mine = flash?.at === at ? flash : null;
  return (
    <div aria-live="polite" className={className}>
      {mine?.kind === "error" ? <ErrorBanner message={mine.message} /> : mine ? <NoticeBanner message={mine.message} /> : null}
    </div>
  );
}

/** A details route that shows the flash in its dialog exports this as its `handle`. */
export const FLASH_IN_DIALOG = { flashInDialog: true } as const;

/** True when the open page's dialog shows the flash: the admin frame then leaves it out, so it is announced once. */
export function useFlashShownInDialog(): boolean {
  return useMatches().some((m) => (m.handle as { flashInDialog?: boolean } | undefined)?.flashInDialog === true);
}
