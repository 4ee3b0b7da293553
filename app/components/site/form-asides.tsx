import { MailIcon, PhoneIcon, WhatsAppIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { whatsappUrl } from "./whatsapp-link";

export const ASIDE_ROW = "flex gap-3";
export const ASIDE_ICON = "mt-0.5 shrink-0 text-lg text-brand-700";

/** `linksFromTablet`: the home page, whose contact section right below has the same links, leaves them out on a phone. */
export function EnquiryAside({ linksFromTablet = false }: { linksFromTablet?: boolean }) {
  return (
    <div className="mt-4 space-y-4 text-slate-700">
      <p>Tell us which course and mode suit you. A counsellor calls you back within {SITE.responseHours} hours with batch dates, fees and a free demo class.</p>
      <ul className={`space-y-3 text-sm ${linksFromTablet ? "max-sm:hidden" : ""}`}>
        <li className={ASIDE_ROW}>
          <PhoneIcon className={ASIDE_ICON} />
          <a href={SITE.phoneHref} className="font-medium text-brand-800 hover:underline">
            {SITE.phone}
          </a>
        </li>
        <li className={ASIDE_ROW}>
          <WhatsAppIcon className={ASIDE_ICON} />
          <a href={whatsappUrl()} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-800 hover:underline">
            Chat on WhatsApp
          </a>
        </li>
      </ul>
    </div>
  );
}

/** The home page's contact section: the quickest ways to reach a counsellor (the address and hours are in the footer and on /contact). */
export function ContactLinks() {
  return (
    <div className="mt-4 text-slate-700">
      <p>Questions about courses, fees or placements? We reply within {SITE.responseHours} hours.</p>
      <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <li className={ASIDE_ROW}>
          <PhoneIcon className={ASIDE_ICON} />
          <a href={SITE.phoneHref} className="font-medium text-brand-800 hover:underline">
            {SITE.phone}
          </a>
        </li>
        <li className={ASIDE_ROW}>
          <WhatsAppIcon className={ASIDE_ICON} />
          <a href={whatsappUrl()} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-800 hover:underline">
            Chat on WhatsApp
          </a>
        </li>
        <li className={ASIDE_ROW}>
          <MailIcon className={ASIDE_ICON} />
          <a href={`mailto:${SITE.email}`} className="font-medium text-brand-800 hover:underline">
            {SITE.email}
          </a>
        </li>
      </ul>
    </div>
  );
}
