import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { MenuIcon } from "~/components/ui/icons";
import { Logo } from "./logo";

export const NAV_ITEMS = [
  { label: "Home", to: "/", anchor: "#top" },
  { label: "About Us", to: "/about", anchor: "#about-section" },
  { label: "Courses", to: "/courses", anchor: "#courses-section" },
  { label: "Schedules", to: "/schedules", anchor: "#schedules-section" },
  { label: "Enquiry", to: "/enquiry", anchor: "#enquiry-section" },
  { label: "Contact", to: "/contact", anchor: "#contact-section" },
] as const;

const SCROLL_THRESHOLD = 20;

const linkBase = "rounded-md px-3 py-2 text-sm font-medium transition-colors";
const linkIdle = "text-(--hdr-fg) hover:bg-(--hdr-active-bg)";
const linkActive = "bg-(--hdr-active-bg) text-(--hdr-active-fg) font-semibold";

/**
 * The fixed header. Transparent over the page's dark top band, white with a shadow after 20 px of scroll
 * (spec §2). Before hydration (or without JavaScript) a CSS scroll-driven animation does the same in
 * browsers that have one (app.css); the mobile menu is a <details> element, so it opens without JavaScript too.
 * On the home page the links jump to the page's sections; elsewhere they navigate.
 *
 * A `notice` (the staff preview banner) sits above the bar, inside the header: the header then stays in the page's
 * flow and sticks to the top (app.css), so the notice and the bar never cover each other or the page's heading.
 */
export function SiteHeader({ notice }: { notice?: ReactNode }) {
  const { pathname, key } = useLocation();
  const onHome = pathname === "/";
  const [enhanced, setEnhanced] = useState(false);
  const [scrolled, setScrolled] = useState(false);
  const menuRef = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > SCROLL_THRESHOLD);
    update();
    setEnhanced(true);
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  // The menu is closed by hand, on the element itself: it may have been opened before the page's scripts woke
  // (a <details> needs none), when no React state knew it was open.
  const closeMenu = () => {
    if (menuRef.current) menuRef.current.open = false;
  };

  // A navigation (or a jump to a section) closes the mobile menu; so does every tap on one of its links, at once,
  // before the next page has arrived (below), and Escape, which gives the focus back to the menu button.
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current !== key) closeMenu(); // not at the first render: a menu opened before then stays open
    shownKey.current = key;
  }, [key]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !menuRef.current?.open) return;
      closeMenu();
      summaryRef.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const links = (mobile: boolean) =>
    NAV_ITEMS.map((item) => {
      const cls = mobile ? "block rounded-md px-4 py-3 text-base font-medium" : linkBase;
      if (onHome) {
        const active = item.to === "/";
        return (
          <li key={item.to}>
            <a
              href={item.anchor}
              aria-current={active ? "page" : undefined}
              onClick={closeMenu}
              className={`${cls} ${mobile ? (active ? "bg-brand-50 text-brand-800" : "text-slate-800 hover:bg-slate-100") : active ? linkActive : linkIdle}`}
            >
              {item.label}
            </a>
          </li>
        );
      }
      return (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end={item.to === "/"}
            onClick={closeMenu}
            className={({ isActive }) =>
              `${cls} ${mobile ? (isActive ? "bg-brand-50 text-brand-800" : "text-slate-800 hover:bg-slate-100") : isActive ? linkActive : linkIdle}`
            }
          >
            {item.label}
          </NavLink>
        </li>
      );
    });

  const enroll = onHome ? (
    <a href="#enquiry-section" onClick={closeMenu} className={buttonClass("accent", "px-4")}>
      Enroll Now
    </a>
  ) : (
    <Link to="/enquiry" onClick={closeMenu} className={buttonClass("accent", "px-4")}>
      Enroll Now
    </Link>
  );

  return (
    <header
      className="site-header inset-x-0 top-0 z-40 transition-[background-color,box-shadow] duration-200"
      data-enhanced={enhanced ? "" : undefined}
      data-scrolled={enhanced ? String(scrolled) : undefined}
    >
      {notice}
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" onClick={closeMenu} className="flex items-center gap-2 rounded-md text-(--hdr-fg)" aria-label="CyberSOC Academy home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">{links(false)}</ul>
        </nav>
        <div className="flex items-center gap-2">
          <div className="hidden sm:block">{enroll}</div>
          <details ref={menuRef} className="lg:hidden">
            <summary
              ref={summaryRef}
              className="flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-md text-2xl text-(--hdr-fg) hover:bg-(--hdr-active-bg) [&::-webkit-details-marker]:hidden"
            >
              <MenuIcon />
              <span className="sr-only">Menu</span>
            </summary>
            <nav
              aria-label="Mobile"
              className="fixed inset-x-0 top-16 max-h-[calc(100vh-4rem)] overflow-y-auto border-t border-slate-200 bg-white px-4 pb-6 pt-2 shadow-lg"
            >
              <ul className="space-y-1">{links(true)}</ul>
              <div className="mt-4 [&>a]:w-full">{enroll}</div>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
