import { Link } from "react-router";
import { CheckIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { SectionHeading } from "./section-heading";
import { ratingCountText, ratingText, studentsText, type Figures } from "~/util/figures";
import { useFigures } from "./use-figures";

export const reasons = (figures: Figures) => [
  {
    title: "Proven Track Record",
    text: `${studentsText(figures)} learners trained since ${SITE.foundedYear}, placed with our partner companies across India.`,
  },
  { title: "Specialised SOC Training", text: "A curriculum built around the daily work of a SOC analyst: monitoring, triage, investigation and response." },
  { title: "End-to-End Job Support", text: "Resume building, mock interviews and referrals to hiring partners until you are placed." },
  { title: "24/7 Support via Messaging Apps", text: "Stuck on a lab at midnight? Mentors answer on WhatsApp and Telegram around the clock." },
  { title: "Continuous Learning", text: "Alumni keep access to new labs, threat-intel sessions and refresher batches." },
  { title: "Industry-Professional Trainers", text: "Every trainer works in security operations, incident response or threat hunting today." },
  { title: "Internship for Freshers", text: "Freshers finish with a real SOC internship and an experience letter for their first job." },
];

/** The home page's about section with the seven reasons to choose the institute (spec §1). */
export function HomeAbout() {
  const figures = useFigures();
  const REASONS = reasons(figures);
  return (
    <section id="about-section" aria-labelledby="about-title" className="bg-slate-50 py-8 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id="about-title" eyebrow="About Us" title="A founder-led institute built by SOC professionals">
          {SITE.name} was founded in Hyderabad by practising security analysts to close the gap between classroom theory and the SOC floor. With partner
          companies hiring from every batch, a{" "}
          <Link to="/reviews" className="font-semibold text-brand-700 underline underline-offset-2">
            {ratingText(figures)}/5 rating from {ratingCountText(figures)} reviews
          </Link>{" "}
          and a {SITE.refundDays}-day money-back refund, you can start with confidence.
        </SectionHeading>
        <h3 className="mt-10 text-center text-2xl font-bold text-slate-900 sm:mt-14">Why choose us</h3>
        {/* Compact rows on a phone (icon beside the text), cards from the tablet width up. */}
        <ul className="mt-8 grid grid-cols-2 gap-x-3 gap-y-4 sm:gap-5 lg:grid-cols-4">
          {REASONS.map((r, i) => (
            <li
              key={r.title}
              className={`flex gap-2 sm:block sm:rounded-2xl sm:border sm:border-slate-200 sm:bg-white sm:p-6 sm:shadow-sm ${i === REASONS.length - 1 ? "sm:col-span-2 lg:col-span-1" : ""}`}
            >
              <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-md bg-brand-50 text-base text-brand-700 sm:h-10 sm:w-10 sm:rounded-lg sm:text-xl">
                <CheckIcon />
              </span>
              <div>
                <h4 className="text-sm font-bold text-slate-900 sm:mt-4 sm:text-base">{r.title}</h4>
                {/* The reasons' titles are the spec's list; on a phone the page keeps to them. */}
                <p className="mt-2 hidden text-sm text-slate-700 sm:block">{r.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
