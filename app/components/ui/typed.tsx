/**
 * A value someone typed (a visitor's name, e-mail, subject or message, a staff note), isolated in <bdi>: however its
 * characters run (an Arabic or Hebrew name, a direction control left in an old row), they cannot reorder the text
 * around it, the label before it or the value after it. One-line fields have lost their direction controls when
 * they were stored (app/schemas/fields.ts cleanText); multi-line text (`lines`) keeps them, so each of its lines
 * takes its direction from its own first letters (unicode-bidi: plaintext) and none spills into the next.
 */
export function Typed({ children, lines = false, className = "" }: { children: string | null | undefined; lines?: boolean; className?: string }) {
  if (lines) return <bdi className={`block whitespace-pre-line [unicode-bidi:plaintext] ${className}`.trim()}>{children}</bdi>;
  return className ? <bdi className={className}>{children}</bdi> : <bdi>{children}</bdi>;
}
