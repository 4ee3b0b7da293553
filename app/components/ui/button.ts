/** Button and button-like link classes, so a <Link> and a <button> look the same. */
// `btn` styles nothing: it marks a link drawn as a button, which the floating WhatsApp link steps aside for.
const BASE =
  "btn inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-lg px-5 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-3 disabled:cursor-not-allowed disabled:opacity-70";

const VARIANTS = {
  primary: "bg-brand-700 text-white hover:bg-brand-800",
  accent: "bg-accent-600 text-white hover:bg-[#9a3412]",
  outline: "border border-brand-700 text-brand-700 hover:bg-brand-50",
  light: "bg-white text-brand-900 hover:bg-brand-50",
  ghostLight: "border border-white/70 text-white hover:bg-white/10",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export function buttonClass(variant: ButtonVariant = "primary", extra = ""): string {
  return `${BASE} ${VARIANTS[variant]} ${extra}`.trim();
}
