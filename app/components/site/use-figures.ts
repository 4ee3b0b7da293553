import { useRouteLoaderData } from "react-router";
import { SITE } from "~/config/site";
import type { Figures } from "~/util/figures";

/**
 * The public figures the site layout's loader read from the site settings (app/routes/_site.tsx). Its defaults
 * only when that data is missing (an error page rendered before the layout's loader answered).
 */
export function useFigures(): Figures {
  const data = useRouteLoaderData("routes/_site") as { figures?: Figures } | undefined;
  return data?.figures ?? SITE.figures;
}
