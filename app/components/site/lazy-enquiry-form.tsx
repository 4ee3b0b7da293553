import type { ComponentProps } from "react";
import type { EnquiryForm as EnquiryFormType } from "./enquiry-form";
import { lazyForm } from "./lazy-forms";

/** The enquiry form (home and /enquiry), its code fetched when a visitor starts to use it (lazy-forms.tsx). */
const enquiry = lazyForm<ComponentProps<typeof EnquiryFormType>>(["enquiry-home-form", "enquiry-page-form"], "enquiry form", () =>
  import("./enquiry-form").then((m) => m.EnquiryForm),
);

export const loadEnquiryForm = enquiry.preload;
export const SiteEnquiryForm = enquiry.SiteForm;
