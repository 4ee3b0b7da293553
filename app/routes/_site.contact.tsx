import { useActionData, type ShouldRevalidateFunctionArgs } from "react-router";
import { siteSettingsForPublicPages } from "~/services/site-settings.server";
import type { SiteSettings } from "~/schemas/site-settings";
import { ContactAside } from "~/components/site/contact-aside";
import { loadContactForm, SiteContactForm } from "~/components/site/lazy-contact-form";
import { PageHero } from "~/components/site/page-hero";
import { SOCIAL_LINKS, whatsappUrl } from "~/components/site/whatsapp-link";
import { buttonClass } from "~/components/ui/button";
import { MailIcon, WhatsAppIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { breadcrumbLd, organizationLd, seoMeta } from "~/util/seo";
import { resultFor } from "~/web/site-forms";
import { contactAction } from "~/web/site-forms.server";
import { publicOrigin } from "~/util/origin.server";
import type { Route } from "./+types/_site.contact";
import { passActionHeaders } from "~/web/action-headers";

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string, figures: SiteSettings) {
  return seoMeta({
    title: "Contact Us",
    description: `Visit our HITEC City campus in Hyderabad, call ${SITE.phone} or send us a message. We reply within ${SITE.responseHours} hours.`,
    path: "/contact",
    origin,
    jsonLd: [organizationLd(origin, figures), breadcrumbLd(origin, [{ name: "Contact", path: "/contact" }])],
  });
}

export async function loader() {
  await loadContactForm();
  return { seo: pageSeo(publicOrigin(), await siteSettingsForPublicPages()) };
}

export const headers = passActionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  return contactAction(request, context);
}

export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Already in the browser with the form's code, so this import works even when the network does not.
  const { submitOrExplain } = await import("~/web/site-form-fallback");
  return submitOrExplain(request, serverAction, { enquiryMessage: false });
}

/** A form post changes nothing this page shows: skip reloading its data (and a failed reload cannot replace the page). */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

export default function Contact() {
  const actionData = useActionData<typeof action>();
  return (
    <main id="main">
      <PageHero
        title="Contact Us"
        crumbs={[{ name: "Contact" }]}
        intro={`Questions about a course, fees or placements? We reply within ${SITE.responseHours} hours.`}
      />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-3">
        <aside aria-labelledby="details-title" className="space-y-8 lg:col-span-1">
          <div>
            <h2 id="details-title" className="text-2xl font-bold text-slate-900">
              Get in touch
            </h2>
            <ContactAside />
          </div>
          <div className="space-y-3 text-sm">
            <p className="flex items-center gap-2 text-slate-700">
              <MailIcon className="shrink-0 text-lg text-brand-700" />
              Careers:{" "}
              <a href={`mailto:${SITE.careerEmail}`} className="font-medium text-brand-800 hover:underline">
                {SITE.careerEmail}
              </a>
            </p>
            <a href={whatsappUrl()} target="_blank" rel="noopener noreferrer" className={buttonClass("primary", "w-full bg-[#0e7a6e] hover:bg-[#0a5f56]")}>
              <WhatsAppIcon className="text-lg" /> Chat on WhatsApp
            </a>
          </div>
          <div>
            <h3 className="font-semibold text-slate-900">Follow us</h3>
            <ul className="mt-3 flex gap-3">
              {SOCIAL_LINKS.map(({ label, href, Icon }) => (
                <li key={label}>
                  <a
                    href={href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${SITE.name} on ${label}`}
                    className="flex h-11 w-11 items-center justify-center rounded-full bg-brand-50 text-xl text-brand-800 hover:bg-brand-100"
                  >
                    <Icon />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </aside>
        <section aria-labelledby="message-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-2">
          <h2 id="message-title" className="mb-6 text-2xl font-bold text-slate-900">
            Send us a message
          </h2>
          <SiteContactForm actionResult={resultFor(actionData, "contact")} resetHref="/contact" />
        </section>
      </div>
      <section aria-labelledby="map-title" className="mx-auto max-w-7xl px-4 pb-16 sm:px-6">
        <h2 id="map-title" className="text-2xl font-bold text-slate-900">
          Find our campus
        </h2>
        <div className="mt-4 aspect-[16/9] overflow-hidden rounded-2xl border border-slate-200 bg-slate-100 sm:aspect-[21/9]">
          <iframe
            title={`Map: ${SITE.name}, ${SITE.address.street}, ${SITE.address.city}`}
            src={SITE.mapEmbedUrl}
            loading="lazy"
            referrerPolicy="no-referrer"
            className="h-full w-full border-0"
          />
        </div>
        <p className="mt-3 text-sm">
          <a href={SITE.mapLinkUrl} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-800 underline">
            Open the map in a new tab
          </a>
        </p>
      </section>
    </main>
  );
}
