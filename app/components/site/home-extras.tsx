import { buttonClass } from "~/components/ui/button";
import { CheckIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";

export const BENEFITS = [
  "Labs with enterprise security tools (SIEM, EDR, SOAR)",
  "Internship for freshers",
  "Hands-on projects",
  "Mock interviews and resume help",
  "Completion certificate plus internship letter",
  "Live interactive sessions",
  "One-on-one career mentorship",
];

/** The closing call to action and the seven included benefits (spec §1). */
export function HomeBenefitsCta() {
  return (
    <section aria-labelledby="cta-title" className="hero-band py-12 text-white sm:py-24">
      <div className="mx-auto grid max-w-7xl items-center gap-8 px-4 sm:gap-12 sm:px-6 lg:grid-cols-2">
        <div>
          <h2 id="cta-title" className="text-3xl font-extrabold tracking-tight sm:text-4xl">
            Join our next batch and start your cybersecurity career
          </h2>
          <p className="mt-4 text-base text-blue-100 sm:text-lg">
            Seats in every batch are limited so each learner gets lab time and mentor attention. Not sure it is for you? Every course comes with a{" "}
            {SITE.refundDays}-day money-back refund.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <a href="#enquiry-section" className={buttonClass("accent", "px-6 py-3 text-base")}>
              Enroll Now
            </a>
            <a href="#schedules-section" className={buttonClass("ghostLight", "px-6 py-3 text-base")}>
              See Upcoming Batches
            </a>
          </div>
        </div>
        <div className="rounded-2xl border border-white/15 bg-white/5 p-5 sm:p-8">
          <h3 className="text-xl font-bold">Every course includes</h3>
          <ul className="mt-4 space-y-2 text-sm sm:mt-5 sm:space-y-3 sm:text-base">
            {BENEFITS.map((b) => (
              <li key={b} className="flex gap-3">
                <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-accent-600 text-sm">
                  <CheckIcon />
                </span>
                {b}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
