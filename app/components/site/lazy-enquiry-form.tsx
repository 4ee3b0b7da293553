import { Suspense, type ComponentProps } from "react";
import type { EnquiryForm as EnquiryFormType } from "./enquiry-form";
import { FormPlaceholder, lazyWithPreload, useCodeOnPageUpdate } from "./lazy-forms";

/** The enquiry form (home and /enquiry), its code fetched when a visitor starts to use it (lazy-forms.tsx). */
const enquiry = lazyWithPreload<ComponentProps<typeof EnquiryFormType>>(["enquiry-home-form", "enquiry-page-form"], () =>
  import("./enquiry-form").then((m) => m.EnquiryForm),
);

export const loadEnquiryForm = enquiry.preload;

export function SiteEnquiryForm(props: ComponentProps<typeof EnquiryFormType>) {
  useCodeOnPageUpdate(enquiry.preload);
  return (
    <Suspense fallback={<FormPlaceholder label="enquiry form" />}>
      <enquiry.Lazy {...props} />
    </Suspense>
  );
}
