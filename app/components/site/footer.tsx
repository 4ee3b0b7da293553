import { Link } from "react-router";
import { EmailText } from "~/components/ui/email-text";
import { MailIcon, MapPinIcon, PhoneIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { Logo } from "./logo";
import { SOCIAL_LINKS, WhatsAppFloat } from "./whatsapp-link";

const QUICK_LINKS = [
  { label: "Home", to: "/" },
  { label: "About Us", to: "/about" },
  { label: "Courses", to: "/courses" },
  { label: "Contact", to: "/contact" },
];

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 break-words gap-y-8 px-4 py-8 sm:px-6 sm:py-14 md:gap-10 lg:grid-cols-4">
        <div className="col-span-2">
          <Link to="/" className="inline-flex items-center gap-2 rounded-md text-white" aria-label={`${SITE.name} home`}>
            <Logo />
          </Link>
          <p className="mt-4 max-w-md text-sm leading-relaxed">
            Job-ready SOC Analyst and cybersecurity training in Hyderabad, online and on campus: real-time labs, internships for freshers, and one-on-one
            mentorship until you are placed.
          </p>
          <ul className="mt-5 flex gap-3" aria-label="Social media">
            {SOCIAL_LINKS.map(({ label, href, Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${SITE.name} on ${label}`}
                  className="flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-lg text-white hover:bg-accent-600"
                >
                  <Icon />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-label="Quick Links">
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Quick Links</h2>
          <ul className="mt-4 space-y-2 text-sm">
            {QUICK_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="rounded hover:text-white hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Contact</h2>
          <address className="mt-4 space-y-3 text-sm not-italic">
            <p className="flex gap-2">
              <MapPinIcon className="mt-0.5 shrink-0" />
              <span>
                {SITE.address.street}, {SITE.address.city}, {SITE.address.region} {SITE.address.postalCode}
              </span>
            </p>
            <p>
              <a href={`mailto:${SITE.email}`} className="flex min-w-0 items-center gap-2 hover:text-white hover:underline">
                <MailIcon className="shrink-0" />
                <EmailText email={SITE.email} className="min-w-0" />
              </a>
            </p>
            <p>
              <a href={SITE.phoneHref} className="flex items-center gap-2 hover:text-white hover:underline">
                <PhoneIcon className="shrink-0" />
                {SITE.phone}
              </a>
            </p>
          </address>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-5 text-center text-sm text-slate-400 sm:px-6">
          © {year} {SITE.name}. All rights reserved.{" "}
          <Link to="/privacy" className="rounded underline-offset-2 hover:text-white hover:underline">
            Privacy notice
          </Link>{" "}
          ·{" "}
          <Link to="/enquiry#where-is-my-enquiry" className="rounded underline-offset-2 hover:text-white hover:underline">
            Where is my enquiry?
          </Link>
        </p>
      </div>
      {/* In the footer's landmark; it floats over the page from here (see WhatsAppFloat). */}
      <WhatsAppFloat />
    </footer>
  );
}
