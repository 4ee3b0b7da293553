import { Link } from "react-router";
import { Stars } from "~/components/ui/icons";
import { TESTIMONIALS } from "~/config/site";
import { SectionHeading } from "./section-heading";

/** The three static testimonials of the home and about pages (spec §1), with the way to every approved review. */
export function Testimonials({ headingLevel = 3 }: { headingLevel?: 3 | 4 }) {
  const Name = headingLevel === 3 ? "h3" : "h4";
  return (
    <>
      {/* On a phone the three sit side by side in a row that scrolls sideways (focusable, so keys scroll it too). */}
      <ul
        className="relative -mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-2 md:mx-0 md:grid md:grid-cols-3 md:gap-6 md:overflow-visible md:px-0"
        tabIndex={0}
        aria-label="Student testimonials"
      >
        {TESTIMONIALS.map((t) => (
          <li key={t.name} className="w-[85%] shrink-0 snap-start md:w-auto">
            <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <Stars rating={t.rating} className="text-lg" />
              <blockquote className="mt-4 flex-1 text-slate-700">
                <p>“{t.quote}”</p>
              </blockquote>
              <figcaption className="mt-6 flex items-center gap-3">
                <img src={t.image} alt="" width={48} height={48} loading="lazy" decoding="async" className="h-12 w-12 rounded-full bg-slate-100" />
                <div>
                  <Name className="font-bold text-slate-900">{t.name}</Name>
                  <p className="text-sm text-slate-600">{t.position}</p>
                </div>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <p className="mt-8 text-center">
        <Link to="/reviews" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
          Read more student success stories <span aria-hidden="true">→</span>
        </Link>
      </p>
    </>
  );
}

/** The testimonials under their heading, as the home and about pages show them (each page its own spacing). */
export function TestimonialsSection({ titleId, className }: { titleId: string; className: string }) {
  return (
    <section aria-labelledby={titleId} className={className}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading id={titleId} eyebrow="Success Stories" title="What our students say" />
        <div className="mt-10">
          <Testimonials />
        </div>
      </div>
    </section>
  );
}
