import type { ComponentProps } from "react";
import type { ContactForm as ContactFormType } from "./contact-form";
import { lazyForm } from "./lazy-forms";

/** The contact form (/contact), its code fetched when a visitor starts to use it (lazy-forms.tsx). */
const contact = lazyForm<ComponentProps<typeof ContactFormType>>(["contact-form"], "contact form", () => import("./contact-form").then((m) => m.ContactForm));

export const loadContactForm = contact.preload;
export const SiteContactForm = contact.SiteForm;
