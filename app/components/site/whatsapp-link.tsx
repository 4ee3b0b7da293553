import { InstagramIcon, LinkedInIcon, WhatsAppIcon, YouTubeIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";

/** The institute's social profiles (footer and /contact). */
export const SOCIAL_LINKS = [
  { label: "YouTube", href: SITE.socials.youtube, Icon: YouTubeIcon },
  { label: "Instagram", href: SITE.socials.instagram, Icon: InstagramIcon },
  { label: "LinkedIn", href: SITE.socials.linkedin, Icon: LinkedInIcon },
];

export function whatsappUrl(text = "Hi, I would like to know more about your cybersecurity courses."): string {
  return `https://wa.me/${SITE.whatsapp}?text=${encodeURIComponent(text)}`;
}

/** The floating WhatsApp button at the bottom right of every public page (spec §2). */
export function WhatsAppFloat() {
  return (
    <a
      href={whatsappUrl()}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Chat with us on WhatsApp"
      className="fixed bottom-5 right-5 z-30 flex h-14 w-14 items-center justify-center rounded-full bg-[#0e7a6e] text-3xl text-white shadow-lg ring-4 ring-white/70 transition-transform hover:scale-105"
    >
      <WhatsAppIcon />
    </a>
  );
}
