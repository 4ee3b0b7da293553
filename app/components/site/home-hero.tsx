import { buttonClass } from "~/components/ui/button";
import { ArrowRightIcon, StarIcon } from "~/components/ui/icons";
import { ratingCountText, ratingText, statsBand } from "~/util/figures";
import { useFigures } from "./use-figures";

/** The home page's opening band. Its two buttons jump to sections of the same page (spec §2). */
export function HomeHero() {
  const figures = useFigures();
  return (
    <section className="hero-band relative overflow-hidden pb-10 pt-20 text-white sm:pb-24 sm:pt-36" aria-labelledby="hero-title">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-blue-50">
            <StarIcon className="text-amber-400" /> Rated {ratingText(figures)}/5 by {ratingCountText(figures)} learners in Hyderabad
          </p>
          <h1 id="hero-title" className="mt-5 text-4xl font-extrabold leading-tight tracking-tight sm:text-5xl lg:text-6xl">
            Launch Your <span className="text-accent-500">SOC Analyst</span> Career with Real-Time Labs, Internship and Mentorship
          </h1>
          {/* On a phone the headline says it; the page keeps short (issue 27). */}
          <p className="mt-5 max-w-2xl text-lg text-blue-100 max-sm:hidden">
            Train on the enterprise security tools real Security Operations Centers use, earn an internship letter, and get one-on-one career mentorship until
            you land your first cybersecurity job. Online and offline batches.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            {/* On a phone the header's Enroll Now is behind the menu button: the first screen offers it here. */}
            <a href="#enquiry-section" className={buttonClass("accent", "px-6 py-3 text-base max-sm:px-4 sm:hidden")}>
              Enroll Now
            </a>
            <a
              href="#courses-section"
              className={buttonClass(
                "accent",
                "px-6 py-3 text-base max-sm:px-4 max-sm:border max-sm:border-white/70 max-sm:bg-transparent max-sm:hover:bg-white/10",
              )}
            >
              Explore Courses <ArrowRightIcon />
            </a>
            <a href="#contact-section" className={buttonClass("ghostLight", "px-6 py-3 text-base max-sm:px-4")}>
              Contact Us
            </a>
          </div>
        </div>
        <div className="hidden lg:col-span-2 lg:block" aria-hidden="true">
          <div className="rounded-2xl border border-white/15 bg-white/5 p-6 font-mono text-sm text-blue-100 shadow-2xl">
            <p className="text-xs uppercase tracking-widest text-blue-200">SOC Live Console</p>
            <ul className="mt-4 space-y-3">
              <li className="flex justify-between gap-4">
                <span>Brute-force login attempts</span>
                <span className="text-red-300">HIGH</span>
              </li>
              <li className="flex justify-between gap-4">
                <span>Phishing mail quarantined</span>
                <span className="text-amber-300">MED</span>
              </li>
              <li className="flex justify-between gap-4">
                <span>EDR: suspicious PowerShell</span>
                <span className="text-red-300">HIGH</span>
              </li>
              <li className="flex justify-between gap-4">
                <span>Firewall rule updated</span>
                <span className="text-green-300">LOW</span>
              </li>
            </ul>
            <p className="mt-5 border-t border-white/10 pt-4 text-xs text-blue-200">Triage it yourself in our live SIEM labs.</p>
          </div>
        </div>
      </div>
    </section>
  );
}

export function StatsBand() {
  const stats = statsBand(useFigures());
  return (
    <section aria-label="Institute in numbers" className="border-b border-slate-200 bg-white">
      <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-6 px-4 py-6 text-center sm:px-6 sm:py-10 md:grid-cols-4">
        {stats.map((s) => (
          <div key={s.label} className="flex flex-col-reverse">
            <dt className="mt-1 text-sm font-medium text-slate-600">
              {s.label}
              {s.note ? <span className="block text-xs font-normal">{s.note}</span> : null}
            </dt>
            <dd className="text-3xl font-extrabold text-brand-700 sm:text-4xl">{s.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
