import { ClockIcon, MapPinIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { AsideRow, EmailRow, PhoneRow } from "./form-asides";

/** Beside the /contact form: where, how and when to reach the institute (apart from ./form-asides.tsx so the home page's script does not carry it). */
export function ContactAside() {
  return (
    <div className="mt-4 space-y-4 text-slate-700">
      <p>Questions about courses, fees or placements? Write to us and we will reply within {SITE.responseHours} hours.</p>
      <ul className="space-y-3 text-sm">
        <AsideRow icon={MapPinIcon}>
          <span>
            {SITE.address.street}, {SITE.address.city} {SITE.address.postalCode}
          </span>
        </AsideRow>
        <PhoneRow />
        <EmailRow />
        <AsideRow icon={ClockIcon}>
          <ul className="space-y-1">
            {SITE.hours.map((h) => (
              <li key={h.days}>
                <span className="font-medium text-slate-800">{h.days}:</span> {h.hours}
              </li>
            ))}
          </ul>
        </AsideRow>
      </ul>
    </div>
  );
}
