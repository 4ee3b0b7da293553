import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { ASIDE_ICON, ASIDE_ROW } from "./form-asides";

/** Beside the /contact form: where, how and when to reach the institute (apart from ./form-asides.tsx so the home page's script does not carry it). */
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
        <li className={ASIDE_ROW}>
          <MapPinIcon className={ASIDE_ICON} />
          <span>
            {SITE.address.street}, {SITE.address.city} {SITE.address.postalCode}
          </span>
        </li>
        <li className={ASIDE_ROW}>
          <PhoneIcon className={ASIDE_ICON} />
          <a href={SITE.phoneHref} className="font-medium text-brand-800 hover:underline">
            {SITE.phone}
          </a>
        </li>
        <li className={ASIDE_ROW}>
          <MailIcon className={ASIDE_ICON} />
          <a href={`mailto:${SITE.email}`} className="font-medium text-brand-800 hover:underline">
            {SITE.email}
          </a>
        </li>
        <li className={ASIDE_ROW}>
          <ClockIcon className={ASIDE_ICON} />
          <OfficeHours />
        </li>
      </ul>
    </div>
  );
}
