import { Link, useFormAction, useNavigation, type LinkProps } from "react-router";

const BASE =
  "inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60";
export const BUTTON_STYLES = {
  primary: `${BASE} bg-brand-700 text-white hover:bg-brand-800`,
  secondary: `${BASE} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`,
  danger: `${BASE} bg-red-700 text-white hover:bg-red-800`,
  ghost: `${BASE} text-brand-700 hover:bg-brand-50`,
} as const;
export type ButtonVariant = keyof typeof BUTTON_STYLES;

export function LinkButton({ variant = "primary", className = "", ...props }: LinkProps & { variant?: ButtonVariant }) {
  return <Link {...props} className={`${BUTTON_STYLES[variant]} ${className}`} />;
}

type SubmitProps = React.ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  /** Text while the form is being sent, e.g. "Saving...". */
  pendingText?: string;
  /** Overrides the automatic detection (a navigation submitting to this route's action). */
  pending?: boolean;
};

/**
 * A submit button that shows its pending text and is disabled while its route's action runs.
 * Without JavaScript it is a plain submit button.
 */
export function SubmitButton({ variant = "primary", pendingText, pending, className = "", children, disabled, ...props }: SubmitProps) {
  const navigation = useNavigation();
  const formAction = useFormAction();
  const samePath = (a: string, b: string) => new URL(a, "http://x").pathname === new URL(b, "http://x").pathname;
  const isPending = pending ?? (navigation.state === "submitting" && navigation.formAction !== undefined && samePath(navigation.formAction, formAction));
  return (
    <button
      type="submit"
      {...props}
      disabled={disabled || isPending}
      aria-disabled={disabled || isPending || undefined}
      className={`${BUTTON_STYLES[variant]} ${className}`}
    >
      {isPending && pendingText ? pendingText : children}
    </button>
  );
}
