import { lazy, Suspense, type ComponentProps, type ComponentType } from "react";
import type { ContactForm as ContactFormType } from "./contact-form";
import type { EnquiryForm as EnquiryFormType } from "./enquiry-form";

/**
 * The public forms' code (conform, zod and the schemas: about 45 KiB gzipped) is kept out of the pages' first
 * JavaScript so each public route stays within the 130 KiB budget (DESIGN.md §6).
 *
 * - On the server the form modules are loaded before rendering (loaders call loadContactForm/loadEnquiryForm),
 *   so the lazy component resolves synchronously and the form is in the HTML itself: it works without JavaScript.
 * - In the browser the page hydrates without the form code; the form's Suspense boundary keeps the server's
 *   markup (still a working plain form) until its chunk arrives, then hydrates it with validation and pending states.
 *   The chunk is fetched when the form comes near the viewport or is touched (see whenNeeded).
 */

type Loaded<T> = { current?: T };

/**
 * In the browser, wait until the server-rendered form is about to be seen or used before fetching its code,
 * so a page whose form is far down (the home page) spends its first seconds on nothing else. Until then the
 * form is the plain HTML form and still posts. Without server markup (a client-side navigation) load at once.
 */
function whenNeeded(formIds: string[]): Promise<void> {
  const form = formIds.map((id) => document.getElementById(id)).find(Boolean);
  if (!form || typeof IntersectionObserver === "undefined") return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && done(), { rootMargin: "600px 0px" });
    function done() {
      observer.disconnect();
      form!.removeEventListener("focusin", done);
      form!.removeEventListener("pointerdown", done);
      resolve();
    }
    observer.observe(form);
    form.addEventListener("focusin", done);
    form.addEventListener("pointerdown", done);
  });
}

function lazyWithPreload<Props extends object>(formIds: string[], load: () => Promise<ComponentType<Props>>) {
  const loaded: Loaded<ComponentType<Props>> = {};
  const preload = () => load().then((component) => (loaded.current = component));
  const Lazy = lazy(() => {
    // Already loaded (always the case on the server): resolve in the same tick so rendering never suspends.
    const ready = loaded.current;
    if (ready) return { then: (resolve: (m: { default: ComponentType<Props> }) => void) => resolve({ default: ready }) } as Promise<{ default: ComponentType<Props> }>;
    return whenNeeded(formIds)
      .then(preload)
      .then((component) => ({ default: component }));
  });
  return { Lazy, preload };
}

const contact = lazyWithPreload<ComponentProps<typeof ContactFormType>>(["contact-form"], () => import("./contact-form").then((m) => m.ContactForm));
const enquiry = lazyWithPreload<ComponentProps<typeof EnquiryFormType>>(["enquiry-home-form", "enquiry-page-form"], () =>
  import("./enquiry-form").then((m) => m.EnquiryForm),
);

export const loadContactForm = contact.preload;
export const loadEnquiryForm = enquiry.preload;

/** Shown only while a client-side navigation fetches the form's code; keeps the space so nothing jumps. */
function FormPlaceholder({ label }: { label: string }) {
  return (
    <div className="flex min-h-[28rem] items-center justify-center text-slate-600" role="status">
      Loading {label}…
    </div>
  );
}

export function SiteContactForm(props: ComponentProps<typeof ContactFormType>) {
  return (
    <Suspense fallback={<FormPlaceholder label="contact form" />}>
      <contact.Lazy {...props} />
    </Suspense>
  );
}

export function SiteEnquiryForm(props: ComponentProps<typeof EnquiryFormType>) {
  return (
    <Suspense fallback={<FormPlaceholder label="enquiry form" />}>
      <enquiry.Lazy {...props} />
    </Suspense>
  );
}
