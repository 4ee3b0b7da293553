import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
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

/**
 * What the floating link must never cover: form controls, buttons and links drawn as buttons (buttonClass). Hidden
 * ones have an empty box at the viewport's top left, far from the link.
 */
const CONTROLS = "input,select,textarea,button,summary,a.btn";
/** Space kept between the link and a control before it steps aside, in px. */
const GAP = 8;

/**
 * The floating WhatsApp link at the bottom right of every public page (spec §2). It lives in the footer (the page's
 * contentinfo landmark) and floats from there.
 *
 * It never covers a form field or a button: with JavaScript, whenever a control would be under it (checked on each
 * scroll, resize, focus and navigation) it slides out of the way until the control has moved on. Before the
 * scripts run, or without them, a narrow screen shows it in the footer's flow instead of over the page (app.css),
 * since nothing there could move it aside; wider screens float it as always.
 */
export function WhatsAppFloat() {
  const ref = useRef<HTMLAnchorElement>(null);
  // Again after each navigation: a page drawn without a scroll may put a control under the link.
  const { key } = useLocation();

  useEffect(() => {
    const link = ref.current!;
    // Where the link sits when shown: its layout box (a fixed element's offsets are the viewport's), not the
    // moved box it has while stepped aside. The attributes are the browser's to set: React renders neither.
    const check = () => {
      const { offsetLeft: x, offsetTop: y, offsetWidth: w, offsetHeight: h } = link;
      const under = [...document.querySelectorAll(CONTROLS)].some((control) => {
        const r = control.getBoundingClientRect();
        return r.left < x + w + GAP && r.right > x - GAP && r.top < y + h + GAP && r.bottom > y - GAP;
      });
      link.toggleAttribute("data-covering", under);
    };
    link.setAttribute("data-enhanced", "");
    check();
    // A scroll is checked in its event, so the link has stepped aside before the control under it is painted there.
    const events = ["scroll", "resize", "focusin"];
    for (const e of events) addEventListener(e, check);
    return () => {
      for (const e of events) removeEventListener(e, check);
    };
  }, [key]);

  return (
    <a ref={ref} href={whatsappUrl()} target="_blank" rel="noopener noreferrer" aria-label="Chat with us on WhatsApp" className="whatsapp-float">
      <WhatsAppIcon />
    </a>
  );
}
