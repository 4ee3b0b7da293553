import { useEffect } from "react";

/**
 * The home page's links to its own sections (#about-section … #contact-section, and #top) scroll there
 * smoothly (CSS scroll-behavior) and put the hash in the address bar without a new history entry.
 *
 * Without JavaScript they are plain anchor jumps. With it, a plain jump would be a popstate that React Router
 * renders at once, without a transition; a form whose code has not arrived yet (see lazy-forms) would then be
 * thrown away and drawn again from scratch, briefly as a shorter placeholder, so the page shifted under the
 * scroll and the section landed in the wrong place.
 */
export function useSectionJumps() {
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href^='#']");
      const id = link?.getAttribute("href")?.slice(1);
      if (!id || !(id === "top" || id.endsWith("-section"))) return;
      const target = document.getElementById(id);
      if (!target && id !== "top") return;
      event.preventDefault();
      if (target) target.scrollIntoView();
      else window.scrollTo({ top: 0 });
      history.replaceState(history.state, "", `#${id}`);
      // Like a native jump, the next Tab starts from the section.
      if (target && event.detail === 0) {
        if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
        target.focus({ preventScroll: true });
      }
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
}
