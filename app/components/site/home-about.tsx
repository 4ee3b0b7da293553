import { CheckIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";
import { SectionHeading } from "./section-heading";
import { ratingCountText, ratingText, studentsText, type Figures } from "~/util/figures";
import { useFigures } from "./use-figures";

export const reasons = (figures: Figures) => [
  { title: "Proven Track Record", text: `${studentsText(figures)} learners trained since ${SITE.foundedYear}, placed with our partner companies across India.` },
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
    <section id="about-section" aria-labelledby="about-title" className="bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id="about-title" eyebrow="About Us" title="A founder-led institute built by SOC professionals">
          {SITE.name} was founded in Hyderabad by practising security analysts to close the gap between classroom theory and the SOC floor. With partner
          companies hiring from every batch, a {ratingText(figures)}/5 rating from {ratingCountText(figures)} reviews and a {SITE.refundDays}-day money-back refund, you
          can start with confidence.
        </SectionHeading>
        <h3 className="mt-14 text-center text-2xl font-bold text-slate-900">Why choose us</h3>
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {REASONS.map((r, i) => (
            <li
              key={r.title}
              className={`rounded-2xl border border-slate-200 bg-white p-6 shadow-sm ${i === REASONS.length - 1 ? "sm:col-span-2 lg:col-span-1" : ""}`}
            >
              <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-50 text-xl text-brand-700">
                <CheckIcon />
              </span>
              <h4 className="mt-4 font-bold text-slate-900">{r.title}</h4>
              <p className="mt-2 text-sm text-slate-700">{r.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
