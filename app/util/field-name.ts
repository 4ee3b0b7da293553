/** A zod issue's path as a form field's name, the way conform names fields (`highlights[2]`, `a.b`); "" for the whole form. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, seg) => (typeof seg === "number" ? `${name}[${seg}]` : name ? `${name}.${String(seg)}` : String(seg)), "");
}
