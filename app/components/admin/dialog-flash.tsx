import { useMatches, useRouteLoaderData } from "react-router";
import { ErrorBanner, NoticeBanner } from "./error-banner";

type LayoutData = { flash: { kind: "error" | "notice"; message: string } | null };

/**
 * The one-time message of the last write, shown inside a details dialog too: with JavaScript the dialog covers
 * the admin frame's banner, and the write (a note, an owner) came back to this dialog.
 */
export function DialogFlash() {
  const flash = useRouteLoaderData<LayoutData>("routes/admin")?.flash;
  if (!flash) return null;
  return flash.kind === "error" ? <ErrorBanner message={flash.message} className="mb-4" /> : <NoticeBanner message={flash.message} className="mb-4" />;
}

/** A details route that shows the flash in its dialog exports this as its `handle`. */
export const FLASH_IN_DIALOG = { flashInDialog: true } as const;

/** True when the open page's dialog shows the flash: the admin frame then leaves it out, so it is announced once. */
export function useFlashShownInDialog(): boolean {
  return useMatches().some((m) => (m.handle as { flashInDialog?: boolean } | undefined)?.flashInDialog === true);
}
