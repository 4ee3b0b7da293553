import type { ComponentType } from "react";
import { MailIcon, PhoneIcon, WhatsAppIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { whatsappUrl } from "./whatsapp-link";

const LINK = "font-medium text-brand-800 hover:underline";

/** One way to reach the institute beside a form: an icon and its text or link. */
export function AsideRow({ icon: Icon, children }: { icon: ComponentType<{ className?: string }>; children: React.ReactNode }) {
  return (
    <li className="flex gap-3">
      <Icon className="mt-0.5 shrink-0 text-lg text-brand-700" />
      {children}
    </li>
  );
}

export function PhoneRow() {
  return (
    <AsideRow icon={PhoneIcon}>
      <a href={SITE.phoneHref} className={LINK}>
        {SITE.phone}
      </a>
    </AsideRow>
  );
}

export function EmailRow() {
  return (
    <AsideRow icon={MailIcon}>
      <a href={`mailto:${SITE.email}`} className={LINK}>
        {SITE.email}
      </a>
    </AsideRow>
  );
}

function WhatsAppRow() {
  return (
    <AsideRow icon={WhatsAppIcon}>
      <a href={whatsappUrl()} target="_blank" rel="noopener noreferrer" className={LINK}>
        Chat on WhatsApp
      </a>
    </AsideRow>
  );
}

/** `linksFromTablet`: the home page, whose contact section right below has the same links, leaves them out on a phone. */
export function EnquiryAside({ linksFromTablet = false }: { linksFromTablet?: boolean }) {
  return (
    <div className="mt-4 space-y-4 text-slate-700">
      <p>Tell us which course and mode suit you. A counsellor calls you back within {SITE.responseHours} hours with batch dates, fees and a free demo class.</p>
      <ul className={`space-y-3 text-sm ${linksFromTablet ? "max-sm:hidden" : ""}`}>
        <PhoneRow />
        <WhatsAppRow />
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
        <PhoneRow />
        <WhatsAppRow />
        <EmailRow />
      </ul>
    </div>
  );
}
