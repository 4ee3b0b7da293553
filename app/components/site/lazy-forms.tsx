import { lazy, Suspense, useState, type ComponentType } from "react";
import { useFetchers, useLocation, useNavigation } from "react-router";

/**
 * The public forms' code (conform, zod/mini and the schemas: about 20 KiB gzipped) is kept out of the pages'
 * JavaScript until a visitor starts to use a form, so a public page stays within the 130 KiB budget
 * (DESIGN.md §6) for everyone who reads it.
 *
 * - On the server the form modules are loaded before rendering (loaders call loadContactForm/loadEnquiryForm),
 *   so the lazy component resolves synchronously and the form is in the HTML itself: it works without JavaScript.
 * - In the browser the page hydrates without the form code; the form's Suspense boundary keeps the server's
 *   markup (a working plain form) until its chunk arrives, then hydrates it with validation and pending states.
 *   The chunk is fetched as soon as the visitor focuses, taps or submits the form; a submit that comes before
 *   the code waits for it (see holdEarlySubmit), so it gets the same client validation.
 *
 * Each form has its own small module (lazy-enquiry-form.tsx, lazy-contact-form.tsx), so a page carries only the
 * loader of the form it shows.
 */

/** Form id → starts fetching that form's code (the same promise every time). */
const formCode = new Map<string, () => Promise<unknown>>();

/** How long a held submit waits for the form's code before the form is sent as plain HTML after all. */
const HOLD_LIMIT_MS = 15_000;

/**
 * A submit before the form's code has hydrated it (data-enhanced is set by use-site-form once it has) is held,
 * the code is loaded, and the submit is made again on the hydrated form. If the code cannot be had, the form
 * posts as plain HTML, exactly as it would without JavaScript.
 */
function holdEarlySubmit(event: SubmitEvent) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.hasAttribute("data-enhanced")) return;
  const load = formCode.get(form.id);
  if (!load) return;
  event.preventDefault();
  const submitter = event.submitter;
  const startedAt = Date.now();
  const sendPlain = () => HTMLFormElement.prototype.submit.call(document.getElementById(form.id) ?? form);
  load().then(function resubmit() {
    const current = document.getElementById(form.id);
    if (current instanceof HTMLFormElement && current.hasAttribute("data-enhanced")) {
      current.requestSubmit(submitter && current.contains(submitter) ? submitter : null);
    } else if (Date.now() - startedAt < HOLD_LIMIT_MS) setTimeout(resubmit, 50);
    else sendPlain();
  }, sendPlain);
}

// On window in the capture phase: React stops events aimed at markup it has not hydrated yet at the document.
if (typeof window !== "undefined") {
  const startUsing = (event: Event) => {
    const form = (event.target as Element | null)?.closest?.("form");
    if (!form || !formCode.has(form.id)) return;
    // Every lazy form on the page, not only this one: a submission re-renders the page, and React holds that
    // render until each form on it has its code (see useCodeOnPageUpdate). Waiting for the other form's code
    // then would hide the pending state on a slow phone and leave the button enabled for a second tap.
    for (const [id, load] of formCode) if (document.getElementById(id)) load().catch(() => {});
  };
  window.addEventListener("focusin", startUsing, true);
  window.addEventListener("pointerdown", startUsing, true);
  window.addEventListener("submit", holdEarlySubmit, true);
}

function lazyWithPreload<Props extends object>(formIds: string[], load: () => Promise<ComponentType<Props>>) {
  let component: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const preload = () => {
    markStarted();
    return (loading ??= load().then(
      (loaded) => (component = loaded),
      (error) => {
        loading = undefined; // the next try fetches again
        throw error;
      },
    ));
  };
  for (const id of formIds) formCode.set(id, preload);
  const Lazy = lazy(() => {
    // Already loaded (always the case on the server): resolve in the same tick so rendering never suspends.
    const ready = component;
    if (ready)
      return { then: (resolve: (m: { default: ComponentType<Props> }) => void) => resolve({ default: ready }) } as Promise<{ default: ComponentType<Props> }>;
    // Wait for the visitor to start using the server-rendered form (the listeners above), unless there is no
    // such form (a client-side navigation) or a form of the page is in use already: focused before this code
    // arrived (it comes after the page has rendered), which counts as touching them all, as in startUsing.
    const forms = formIds.map((id) => document.getElementById(id)).filter((form) => form !== null);
    const inUse = document.activeElement?.closest("form");
    if (forms.length === 0 || (inUse && formCode.has(inUse.id))) void preload().catch(() => {});
    return started.then(preload).then(
      (loaded) => ({ default: loaded }),
      (error) => {
        // Offline or a failed deploy: keep the server's markup, a plain form that still posts, rather than an error page.
        if (forms.length > 0) return new Promise<never>(() => {});
        throw error;
      },
    );
  });
  return { Lazy, preload };
}

/** Shown only while a client-side navigation fetches the form's code; keeps the space so nothing jumps. */
function FormPlaceholder({ label }: { label: string }) {
  return (
    <div className="flex min-h-[28rem] items-center justify-center text-slate-600" role="status">
      Loading {label}…
    </div>
  );
}

/**
 * An update of this page while a form still waits for its code (a submission of the other form on the page,
 * a jump to a section, a new query string) needs that code now: React passes the router's new state into the
 * form's server-rendered Suspense boundary, which cannot take it before it has hydrated, so React holds the
 * whole update until the code arrives. Such a render therefore starts the load itself (one promise per form;
 * the call comes during render, before React reaches the boundary). A navigation to another page does not:
 * that page replaces the form.
 */
function useCodeOnPageUpdate(preload: () => Promise<unknown>) {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const location = useLocation();
  const [first] = useState(location);
  const samePage = location.pathname === first.pathname;
  const updating =
    fetchers.some((f) => f.state !== "idle") ||
    (navigation.state !== "idle" && navigation.location.pathname === location.pathname) ||
    (samePage && location.key !== first.key);
  if (updating) void preload().catch(() => {});
}

/**
 * A public form whose code is fetched when a visitor starts to use it: `preload` (loaders call it so the server
 * renders the form into the HTML) and the component the page renders.
 */
export function lazyForm<Props extends object>(formIds: string[], label: string, load: () => Promise<ComponentType<Props>>) {
  const { Lazy, preload } = lazyWithPreload<Props>(formIds, load);
  function SiteForm(props: Props) {
    useCodeOnPageUpdate(preload);
    return (
      <Suspense fallback={<FormPlaceholder label={label} />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { preload, SiteForm };
}
