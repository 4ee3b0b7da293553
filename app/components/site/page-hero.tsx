import type { ReactNode } from "react";
import { Link } from "react-router";

/** The dark top band of an inner page (the header sits transparent over it), with a breadcrumb trail. */
export function PageHero({
  title,
  intro,
  crumbs,
  children,
}: {
  title: string;
  intro?: ReactNode;
  crumbs: { name: string; to?: string }[];
  children?: ReactNode;
}) {
  return (
    <section className="hero-band relative overflow-hidden pb-14 pt-28 text-white sm:pb-16 sm:pt-32">
      <div className="relative mx-auto max-w-7xl px-4 sm:px-6">
        <nav aria-label="Breadcrumb" className="text-sm text-blue-100">
          <ol className="flex flex-wrap items-center gap-1.5">
            <li>
              <Link to="/" className="hover:text-white hover:underline">
                Home
              </Link>
            </li>
            {crumbs.map((c, i) => (
              <li key={c.name} className="flex items-center gap-1.5">
                <span aria-hidden="true">/</span>
                {c.to && i < crumbs.length - 1 ? (
                  <Link to={c.to} className="hover:text-white hover:underline">
                    {c.name}
                  </Link>
                ) : (
                  <span aria-current="page" className="text-white">
                    {c.name}
                  </span>
                )}
              </li>
            ))}
          </ol>
        </nav>
        <h1 className="mt-4 max-w-3xl text-3xl font-extrabold tracking-tight sm:text-4xl lg:text-5xl">{title}</h1>
        {intro ? <div className="mt-4 max-w-2xl text-lg text-blue-100">{intro}</div> : null}
        {children}
      </div>
    </section>
  );
}
