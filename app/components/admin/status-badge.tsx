export type BadgeTone = "green" | "yellow" | "blue" | "purple" | "gray" | "red" | "brand";

const TONES: Record<BadgeTone, string> = {
  green: "bg-green-100 text-green-800 ring-green-600/20",
  yellow: "bg-amber-100 text-amber-900 ring-amber-600/20",
  blue: "bg-sky-100 text-sky-900 ring-sky-600/20",
  purple: "bg-purple-100 text-purple-800 ring-purple-600/20",
  gray: "bg-slate-100 text-slate-700 ring-slate-500/20",
  red: "bg-red-100 text-red-800 ring-red-600/20",
  brand: "bg-brand-100 text-brand-800 ring-brand-700/20",
};

/** A small coloured label for a status, role or mode. Colours are chosen for at least 4.5:1 contrast. */
export function StatusBadge({ tone = "gray", children }: { tone?: BadgeTone; children: React.ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}
