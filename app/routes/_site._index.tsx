import { data, Link, useActionData, type ShouldRevalidateFunctionArgs } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { siteSettingsForPublicPages } from "~/services/site-settings.server";
import type { SiteSettings } from "~/schemas/site-settings";
import { HomeAbout } from "~/components/site/home-about";
import { HomeBenefitsCta } from "~/components/site/home-extras";
import { TestimonialsSection } from "~/components/site/testimonials";
import { HomeHero, StatsBand } from "~/components/site/home-hero";
import { loadEnquiryForm, SiteEnquiryForm } from "~/components/site/lazy-enquiry-form";
import { HomeCourses, HomeSchedules } from "~/components/site/home-sections";
import { ContactLinks, EnquiryAside } from "~/components/site/form-asides";
import { SectionHeading } from "~/components/site/section-heading";
import { useSectionJumps } from "~/components/site/use-section-jumps";
import { FALLBACK_COURSE_TITLES, SITE } from "~/config/site";
import { organizationLd, seoMeta } from "~/util/seo";
import { INTENT_FIELD, resultFor } from "~/web/site-forms";
import { contactAction, enquiryAction } from "~/web/site-forms.server";
import { listAllCourses } from "~/models/course.server";
import { listUpcomingSchedules } from "~/models/schedule.server";
import { publicOrigin } from "~/util/origin.server";
import { courseSummary, scheduleSummary } from "~/web/public-data.server";
import type { Route } from "./+types/_site._index";
import { passActionHeaders } from "~/web/action-headers";
import { courseFeeLine } from "~/util/fee";

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string, figures: SiteSettings) {
  return seoMeta({
    title: `${SITE.name}: SOC Analyst Training in Hyderabad`,
    description: SITE.description,
    path: "/",
    origin,
    jsonLd: [organizationLd(origin, figures)],
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const modeParam = new URL(request.url).searchParams.get("mode");
  const mode = modeParam === "online" || modeParam === "offline" ? modeParam : "";
  // A failed read hides that section (spec §8) instead of failing the whole page.
  const [courses, schedules] = await Promise.all([
    listAllCourses().catch((error) => {
      console.error("Failed to load courses", error);
      return null;
    }),
    listUpcomingSchedules(mode ? { mode } : {}).catch((error) => {
      console.error("Failed to load course schedules", error);
      return null;
    }),
    // The forms' code, so they are rendered into the HTML (see lazy-forms).
    loadEnquiryForm(),
  ]);
  // Only what the cards show: the page's data must not carry every course's whole syllabus.
  return {
    courses: courses?.map(courseSummary) ?? null,
    schedules: schedules?.map(scheduleSummary) ?? null,
    mode,
    seo: pageSeo(publicOrigin(), await siteSettingsForPublicPages()),
  };
}

/** The enquiry form posts here (and a contact form from a page cached before it moved to /contact); the hidden intent field says which. */
export const headers = passActionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const intent = formData.get(INTENT_FIELD);
  // The two forms carry no files, so reading the body before counting the attempt costs nothing.
  const read = async () => formData;
  if (intent === "contact") return contactAction(request, context, read);
  if (intent === "enquiry") return enquiryAction(request, context, { channel: "home", read });
  throw data("Unknown form", { status: 400 });
}

export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Already in the browser with the form's code, so this import works even when the network does not.
  const { submitOrExplain } = await import("~/web/site-form-fallback");
  return submitOrExplain(request, serverAction, { enquiryMessage: false });
}

/** A form post changes nothing this page shows: skip reloading its data (and a failed reload cannot replace the page). */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { courses, schedules, mode } = loaderData;
  const actionData = useActionData<typeof action>();
  useSectionJumps();
  const courseTitles = courses?.length ? courses.map((c) => c.title) : [...FALLBACK_COURSE_TITLES];
  const fees = Object.fromEntries((courses ?? []).map((c) => [c.title, courseFeeLine(c)]));
  return (
    <main id="main">
      <HomeHero />
      <StatsBand />
      <HomeAbout />
      {/* Without courses the section is hidden silently (spec §8); its anchor stays, so Explore Courses still lands. */}
      {courses?.length ? <HomeCourses courses={courses} /> : <div id="courses-section" />}
      <HomeSchedules schedules={schedules} mode={mode} />
      {/* The three static testimonials of spec §1, with the way to every approved review. */}
      <TestimonialsSection titleId="testimonials-title" className="overflow-x-clip bg-slate-50 py-8 sm:py-24" />
      <HomeBenefitsCta />
      <section id="enquiry-section" aria-labelledby="enquiry-title" className="py-8 sm:py-24">
        <div className="mx-auto grid max-w-7xl gap-10 px-4 sm:px-6 lg:grid-cols-3">
          <div className="lg:col-span-1">
            <SectionHeading id="enquiry-title" eyebrow="Enquiry" title="Reserve your seat" align="left" />
            <EnquiryAside linksFromTablet />
          </div>
          <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-8 lg:col-span-2">
            <SiteEnquiryForm
              variant="home"
              action="/?index#enquiry-section"
              actionResult={resultFor(actionData, "enquiry")}
              courses={courseTitles}
              fees={fees}
              resetHref="/#enquiry-section"
            />
          </div>
        </div>
      </section>
      {/* The contact form is on /contact: one form here (issue 27), and the ways to reach a counsellor at once. */}
      <section id="contact-section" aria-labelledby="contact-title" className="bg-slate-50 py-8 sm:py-16">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <SectionHeading id="contact-title" eyebrow="Contact" title="Talk to a counsellor" align="left" />
          <ContactLinks />
          <p className="mt-6">
            <Link to="/contact" className={buttonClass("outline")}>
              Send us a message on the contact page
            </Link>
          </p>
        </div>
      </section>
    </main>
  );
}
