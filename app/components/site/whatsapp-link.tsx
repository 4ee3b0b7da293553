import { useEffect, useRef, useState } from "react";
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

/** What the floating link must never cover: form controls, buttons and links drawn as buttons (buttonClass). */
const CONTROLS = "input:not([type=hidden]), select, textarea, button, summary, [role=button], a.btn";
/** Space kept between the link and a control before it steps aside, in px. */
const GAP = 8;

/**
 * The floating WhatsApp link at the bottom right of every public page (spec §2). It lives in the footer (the page's
 * contentinfo landmark) and floats from there.
 *
 * It never covers a form field or a button: with JavaScript, whenever a control would be under it (checked on each
 * scroll, resize and change of the page) it slides out of the way until the control has moved on. Before the
 * scripts run, or without them, a narrow screen shows it in the footer's flow instead of over the page (app.css),
 * since nothing there could move it aside; wider screens float it as always.
 */
export function WhatsAppFloat() {
  const ref = useRef<HTMLAnchorElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [covering, setCovering] = useState(false);

  useEffect(() => {
    setEnhanced(true);
    const link = ref.current;
    if (!link) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      // Where the link sits when shown: its layout box (offsets of a fixed element are the viewport's), not the
      // transformed box it has while stepped aside.
      const left = link.offsetLeft - GAP;
      const top = link.offsetTop - GAP;
      const right = link.offsetLeft + link.offsetWidth + GAP;
      const bottom = link.offsetTop + link.offsetHeight + GAP;
      let under = false;
      for (const control of document.querySelectorAll(CONTROLS)) {
        if (link.contains(control)) continue;
        const r = control.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (r.left < right && r.right > left && r.top < bottom && r.bottom > top) {
          under = true;
          break;
        }
      }
      setCovering(under);
    };
    // A scroll is checked at once, so the link has stepped aside before the control under it is painted there.
    const now = () => {
      if (frame) cancelAnimationFrame(frame);
      check();
    };
    const soon = () => {
      frame ||= requestAnimationFrame(check);
    };
    now();
    window.addEventListener("scroll", now, { passive: true });
    window.addEventListener("resize", soon);
    const changes = new MutationObserver(soon);
    changes.observe(document.body, { childList: true, subtree: true });
    return () => {
      window.removeEventListener("scroll", now);
      window.removeEventListener("resize", soon);
      changes.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);

  return (
    <a
      ref={ref}
      href={whatsappUrl()}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Chat with us on WhatsApp"
      data-enhanced={enhanced ? "" : undefined}
      data-covering={covering ? "" : undefined}
      className="whatsapp-float z-30 flex h-14 w-14 items-center justify-center rounded-full bg-[#0e7a6e] text-3xl text-white shadow-lg ring-4 ring-white/70 hover:scale-105"
    >
      <WhatsAppIcon />
    </a>
  );
}
