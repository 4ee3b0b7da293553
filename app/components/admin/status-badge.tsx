import { BADGE_TONES, type BadgeTone } from "~/components/ui/badge-tones";

export type { BadgeTone };

/** A small coloured label for a status, role or mode. Colours are chosen for at least 4.5:1 contrast. */
export function StatusBadge({ tone = "gray", children }: { tone?: BadgeTone; children: React.ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${BADGE_TONES[tone]}`}>
      {children}
    </span>
  );
}
