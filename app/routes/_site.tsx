import { Outlet, useMatches, useRouteError, type UIMatch } from "react-router";
import { SiteFooter } from "~/components/site/footer";
import { SiteHeader } from "~/components/site/header";
import { ErrorContent } from "~/components/site/error-content";
import { siteSettingsForPublicPages } from "~/services/site-settings.server";
import { pickFigures } from "~/util/figures";

/**
 * A route may put a notice above the header's bar (the course page's staff Preview banner): `handle.notice` makes it
 * from the route's data. Its code stays in that route's module.
 */
export type NoticeHandle = { notice?: (data: unknown) => React.ReactNode };

function useNotice(): React.ReactNode {
  return (useMatches() as UIMatch<unknown, NoticeHandle | undefined>[]).map((m) => m.handle?.notice?.(m.loaderData)).find(Boolean);
}

function Shell({ children }: { children: React.ReactNode }) {
  const notice = useNotice();
  return (
    <div id="top" className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand-900 focus:not-sr-only focus:fixed focus:left-4 focus:top-3"
      >
        Skip to main content
      </a>
      <SiteHeader notice={notice} />
      <div className="flex-1">{children}</div>
      <SiteFooter />
    </div>
  );
}

/**
 * The public figures (students trained, rating …) every page shows, read once here from the site settings: one
 * source, so no two pages can disagree. A save moves the content version, so the page cache renews them.
 */
export async function loader() {
  return { figures: pickFigures(await siteSettingsForPublicPages()) };
}

/** The figures change only with a settings save: a form post or a move between pages does not read them again. */
export function shouldRevalidate() {
  return false;
}

// The public shell (header, footer, WhatsApp link) wraps every public page; /admin has its own layout.
export default function SiteLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** Errors of public pages (Page Not Found above all) keep the header and footer, so the visitor can carry on. */
export function ErrorBoundary() {
  return (
    <Shell>
      <ErrorContent error={useRouteError()} />
    </Shell>
  );
}
