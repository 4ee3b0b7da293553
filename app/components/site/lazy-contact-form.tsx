import { Suspense, type ComponentProps } from "react";
import type { ContactForm as ContactFormType } from "./contact-form";
import { FormPlaceholder, lazyWithPreload, useCodeOnPageUpdate } from "./lazy-forms";

/** The contact form (/contact), its code fetched when a visitor starts to use it (lazy-forms.tsx). */
const contact = lazyWithPreload<ComponentProps<typeof ContactFormType>>(["contact-form"], () => import("./contact-form").then((m) => m.ContactForm));

export const loadContactForm = contact.preload;

export function SiteContactForm(props: ComponentProps<typeof ContactFormType>) {
  useCodeOnPageUpdate(contact.preload);
  return (
    <Suspense fallback={<FormPlaceholder label="contact form" />}>
      <contact.Lazy {...props} />
    </Suspense>
  );
}
