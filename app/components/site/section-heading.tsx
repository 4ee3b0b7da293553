import type { ReactNode } from "react";

export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  light = false,
  align = "center",
}: {
  id?: string;
  eyebrow?: string;
  title: string;
  children?: ReactNode;
  light?: boolean;
  align?: "center" | "left";
}) {
  return (
    <div className={align === "center" ? "mx-auto max-w-3xl text-center" : ""}>
      {eyebrow ? <p className={`text-sm font-semibold uppercase tracking-widest ${light ? "text-accent-500" : "text-accent-600"}`}>{eyebrow}</p> : null}
      <h2 id={id} className={`mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl ${light ? "text-white" : "text-slate-900"}`}>
        {title}
      </h2>
      {children ? <div className={`mt-4 text-base sm:text-lg ${light ? "text-blue-100" : "text-slate-700"}`}>{children}</div> : null}
    </div>
  );
}
