import { env } from "~/env.server";

/** The site's public origin without a trailing slash (PUBLIC_URL), for canonical URLs, sitemaps and JSON-LD. */
export function publicOrigin(): string {
  return env().PUBLIC_URL.replace(/\/+$/, "");
}
