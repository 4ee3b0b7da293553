import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon, WhatsAppIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { whatsappUrl } from "./whatsapp-link";

const row = "flex gap-3";
const icon = "mt-0.5 shrink-0 text-lg text-brand-700";

/** `linksFromTablet`: the home page, whose contact section right below has the same links, leaves them out on a phone. */
export function EnquiryAside({ linksFromTablet = false }: { linksFromTablet?: boolean }) {
  return (
    <div className="mt-4 space-y-4 text-slate-700">
      <p>Tell us which course and mode suit you. A counsellor calls you back within {SITE.responseHours} hours with batch dates, fees and a free demo class.</p>
      <ul className={`space-y-3 text-sm ${linksFromTablet ? "max-sm:hidden" : ""}`}>
        <li className={row}>
          <PhoneIcon className={icon} />
          <a href={SITE.phoneHref} className="font-medium text-brand-800 hover:underline">
            {SITE.phone}
          </a>
        </li>
        <li className={row}>
          <WhatsAppIcon className={icon} />
          <a href={whatsappUrl()} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-800 hover:underline">
            Chat on WhatsApp
          </a>
        </li>
      </ul>
    </div>
  );
}

export function OfficeHours() {
  return (
    <ul className="space-y-1">
      {SITE.hours.map((h) => (
        <li key={h.days}>
          <span className="font-medium text-slate-800">{h.days}:</span> {h.hours}
        </li>
      ))}
    </ul>
  );
}

export function ContactAside() {
  return (
    <div className="mt-4 space-y-4 text-slate-700">
      <p>Questions about courses, fees or placements? Write to us and we will reply within {SITE.responseHours} hours.</p>
      <ul className="space-y-3 text-sm">
        <li className={row}>
          <MapPinIcon className={icon} />
          <span>
            {SITE.address.street}, {SITE.address.city} {SITE.address.postalCode}
          </span>
        </li>
        <li className={row}>
          <PhoneIcon className={icon} />
          <a href={SITE.phoneHref} className="font-medium text-brand-800 hover:underline">
            {SITE.phone}
          </a>
        </li>
        <li className={row}>
          <MailIcon className={icon} />
          <a href={`mailto:${SITE.email}`} className="font-medium text-brand-800 hover:underline">
            {SITE.email}
          </a>
        </li>
        <li className={row}>
          <ClockIcon className={icon} />
          <OfficeHours />
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
        <li className={row}>
          <PhoneIcon className={icon} />
          <a href={SITE.phoneHref} className="font-medium text-brand-800 hover:underline">
            {SITE.phone}
          </a>
        </li>
        <li className={row}>
          <WhatsAppIcon className={icon} />
          <a href={whatsappUrl()} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-800 hover:underline">
            Chat on WhatsApp
          </a>
        </li>
        <li className={row}>
          <MailIcon className={icon} />
          <a href={`mailto:${SITE.email}`} className="font-medium text-brand-800 hover:underline">
            {SITE.email}
          </a>
        </li>
      </ul>
    </div>
  );
}
