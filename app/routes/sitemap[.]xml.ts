import { env } from "~/env.server";
import { listAllCourses } from "~/models/course.server";
import { COURSE_PAGE_PREFIX, PUBLIC_PAGES } from "~/web/public-pages";

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Every public page and every course page, for search engines. */
export async function loader() {
  const origin = env().PUBLIC_URL.replace(/\/+$/, "");
  const courses = await listAllCourses();
  const urls = [
    ...PUBLIC_PAGES.map((path) => ({ loc: `${origin}${path}`, lastmod: undefined as string | undefined })),
    ...courses.map((c) => ({ loc: `${origin}${COURSE_PAGE_PREFIX}${c.slug}`, lastmod: c.updatedAt.slice(0, 10) })),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`),
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
