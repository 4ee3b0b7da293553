import { isRouteErrorResponse, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";

/**
 * What an error shows (DESIGN.md §4.12): Page Not Found for a 404, otherwise Unexpected Application Error!
 * with a way home. The stack trace is shown only by the development server.
 */
export function ErrorContent({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main id="main" className="hero-band flex min-h-[75vh] flex-col items-center justify-center px-4 pb-24 pt-32 text-center text-white">
        <title>Page Not Found</title>
        <meta name="robots" content="noindex" />
        <p className="text-7xl font-extrabold text-accent-500" aria-hidden="true">
          404
        </p>
        <h1 className="mt-2 text-3xl font-bold sm:text-4xl">Page Not Found</h1>
        <p className="mt-3 max-w-xl text-blue-100">The page you are looking for does not exist or has moved.</p>
        <Link to="/" className={buttonClass("light", "mt-8")}>
          Back to Home
        </Link>
      </main>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <main id="main" className="hero-band flex min-h-[75vh] flex-col items-center justify-center px-4 pb-24 pt-32 text-center text-white">
      <title>Unexpected Application Error!</title>
      <meta name="robots" content="noindex" />
      <h1 className="text-3xl font-bold sm:text-4xl">Unexpected Application Error!</h1>
      <p className="mt-3 max-w-xl text-blue-100">
        {status === 403 ? "You do not have permission to view this page." : "Something went wrong on our side. Please try again."}
      </p>
      {detail ? <pre className="mt-4 max-w-full overflow-auto text-left text-xs text-red-200">{detail}</pre> : null}
      <Link to="/" className={buttonClass("light", "mt-8")}>
        Back to Home
      </Link>
    </main>
  );
}
