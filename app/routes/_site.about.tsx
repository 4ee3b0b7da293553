import { Link } from "react-router";
import { useFigures } from "~/components/site/use-figures";
import { studentsText } from "~/util/figures";
import { PageHero } from "~/components/site/page-hero";
import { SectionHeading } from "~/components/site/section-heading";
import { TestimonialsSection } from "~/components/site/testimonials";
import { buttonClass } from "~/components/ui/button";
import { SITE } from "~/config/site";
import { breadcrumbLd, seoMeta } from "~/util/seo";
import { publicOrigin } from "~/util/origin.server";
import type { Route } from "./+types/_site.about";

const VALUES = [
  { title: "Excellence", text: "We hold every lab, lecture and mock interview to the standard of a real security operations center." },
  { title: "Innovation", text: "Our labs follow the threat landscape: new attack techniques and tools reach the syllabus within weeks." },
  { title: "Integrity", text: "Honest advice about careers and courses, transparent fees and a 7-day money-back refund." },
  { title: "Community", text: "Alumni, trainers and partner companies who help each other learn, hire and grow." },
];

// Built by the loader on the server (it knows PUBLIC_URL), so the tag builders never ship to the browser.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

function pageSeo(origin: string) {
  return seoMeta({
    title: "About Us",
    description: `${SITE.name} is a founder-led cybersecurity institute in Hyderabad: our mission, vision and values, and what our students say.`,
    path: "/about",
    origin,
    jsonLd: [breadcrumbLd(origin, [{ name: "About Us", path: "/about" }])],
  });
}

export function loader() {
  return { seo: pageSeo(publicOrigin()) };
}

export default function About() {
  const figures = useFigures();
  return (
    <main id="main">
      <PageHero
        title="About Us"
        crumbs={[{ name: "About Us" }]}
        intro={`Founded in ${SITE.foundedYear} by practising security analysts, ${SITE.name} has trained ${studentsText(figures)} learners for careers in cybersecurity.`}
      />
      <section aria-label="Mission and vision" className="py-14 sm:py-20">
        <div className="mx-auto grid max-w-7xl gap-6 px-4 sm:px-6 md:grid-cols-2">
          <article className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
            <h2 className="text-2xl font-bold text-slate-900">Our Mission</h2>
            <p className="mt-4 text-slate-700">
              To make every learner job-ready for the security operations center: hands-on skills on enterprise tools, real incident experience through
              internships, and the mentorship it takes to land and keep the first job.
            </p>
          </article>
          <article className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
            <h2 className="text-2xl font-bold text-slate-900">Our Vision</h2>
            <p className="mt-4 text-slate-700">
              To be India's most trusted launchpad for cybersecurity careers, closing the skills gap with analysts who can defend organisations from their first
              day on the job.
            </p>
          </article>
        </div>
      </section>
      <section aria-labelledby="values-title" className="bg-slate-50 py-14 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <SectionHeading id="values-title" eyebrow="What drives us" title="Our Core Values" />
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map((v) => (
              <li key={v.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <h3 className="text-lg font-bold text-brand-800">{v.title}</h3>
                <p className="mt-2 text-sm text-slate-700">{v.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <TestimonialsSection titleId="about-testimonials-title" className="py-14 sm:py-20" />
      <section aria-labelledby="apply-title" className="hero-band py-14 text-center text-white">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="apply-title" className="text-2xl font-extrabold sm:text-3xl">
            Ready to start your cybersecurity career?
          </h2>
          <p className="mt-3 text-blue-100">Join the next batch and learn from working SOC professionals.</p>
          <Link to="/enquiry" className={buttonClass("accent", "mt-6")}>
            Apply Now
          </Link>
        </div>
      </section>
    </main>
  );
}
