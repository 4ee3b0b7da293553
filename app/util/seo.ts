import type { MetaDescriptor } from "react-router";
import { SITE } from "~/config/site";

/**
 * Search and sharing tags for the public pages. Each page's loader builds them on the server (the canonical
 * origin is PUBLIC_URL) and its meta() returns them, so none of this code is sent to the browser.
 */

export const OG_IMAGE = "/images/og-cover.png";

export type PageSeo = {
  title: string;
  description: string;
  /** Path of the page's canonical URL, e.g. /courses (filters and modals are left out on purpose). */
  path: string;
  origin: string;
  image?: string | null;
  type?: "website" | "article";
  jsonLd?: object[];
  noindex?: boolean;
};

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  if (/^https?:\/\//.test(pathOrUrl)) return pathOrUrl;
  return `${origin}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}

/** "Page | CyberSOC Academy", unless the title already names the institute. */
export function pageTitle(title: string): string {
  return title.includes(SITE.name) ? title : `${title} | ${SITE.name}`;
}

export function seoMeta(page: PageSeo): MetaDescriptor[] {
  const url = absoluteUrl(page.origin, page.path);
  const image = absoluteUrl(page.origin, page.image || OG_IMAGE);
  const title = pageTitle(page.title);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:site_name", content: SITE.name },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:locale", content: "en_IN" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
  ];
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  for (const block of page.jsonLd ?? []) tags.push({ "script:ld+json": block as never });
  return tags;
}

/** `figures`: the site settings' rating and review count (app/util/figures.ts), as the pages show them. */
export function organizationLd(origin: string, figures: { rating: number; ratingCount: number }) {
  return {
    "@context": "https://schema.org",
    "@type": "EducationalOrganization",
    "@id": `${origin}/#organization`,
    name: SITE.name,
    description: SITE.description,
    url: `${origin}/`,
    logo: `${origin}/favicon.svg`,
    image: `${origin}${OG_IMAGE}`,
    email: SITE.email,
    telephone: SITE.phone,
    foundingDate: String(SITE.foundedYear),
    address: postalAddress(),
    sameAs: Object.values(SITE.socials),
    aggregateRating: { "@type": "AggregateRating", ratingValue: figures.rating, bestRating: 5, reviewCount: figures.ratingCount },
  };
}

export function postalAddress() {
  return {
    "@type": "PostalAddress",
    streetAddress: SITE.address.street,
    addressLocality: SITE.address.city,
    addressRegion: SITE.address.region,
    postalCode: SITE.address.postalCode,
    addressCountry: SITE.address.country,
  };
}

/** Home first, then each named step; the last step is the current page. */
export function breadcrumbLd(origin: string, trail: { name: string; path: string }[]) {
  const steps = [{ name: "Home", path: "/" }, ...trail];
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: steps.map((step, i) => ({ "@type": "ListItem", position: i + 1, name: step.name, item: absoluteUrl(origin, step.path) })),
  };
}
