import { env } from "~/env.server";

/** Crawlers may read the public site; the back office, the JSON API and the personal pages (/me, a guardian's consent) are off limits. */
export function loader() {
  const origin = env().PUBLIC_URL.replace(/\/+$/, "");
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /api",
    "Disallow: /me",
    "Disallow: /guardian",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}
