import { Links, Outlet, Scripts, ScrollRestoration, useRouteError } from "react-router";
import { ErrorContent } from "~/components/site/error-content";
import { SiteMeta } from "~/components/site/site-meta";
import type { Route } from "./+types/root";
import { useNonce } from "~/web/nonce";
// Linked by hand (not a side-effect import) so it can carry `precedence`: React then sends the stylesheet ahead of
// the scripts' modulepreload hints, and the first paint does not queue behind twenty script downloads.
import appStylesHref from "./app.css?url";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#172554" />
        <link rel="stylesheet" href={appStylesHref} precedence="default" />
        <SiteMeta />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorContent error={useRouteError()} />;
}
