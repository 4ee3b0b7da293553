/**
 * The value a browser keeps in an `<input>` of the given type. For date and number fields a browser drops
 * whatever is no valid date or number (HTML's value sanitization), and the HTML standard forbids such a
 * value in the markup. A form shown again after a failed post echoes what was sent, which a script or an
 * old browser may have filled with anything; rendering the empty field the browser would show anyway keeps
 * the page valid and looks the same.
 */
export function inputValue<T>(type: string | undefined, value: T): T | "" {
  if (typeof value !== "string" || value === "") return value;
  if (type === "date") return isValidDateString(value) ? value : "";
  if (type === "number") return isValidFloatingPointNumber(value) ? value : "";
  return value;
}

/** HTML's "valid date string": YYYY-MM-DD (four or more year digits, year above 0) naming a real day. */
export function isValidDateString(value: string): boolean {
  const match = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

/** HTML's "valid floating-point number" (no "+", no "Infinity", no spaces) that a double can hold. */
export function isValidFloatingPointNumber(value: string): boolean {
  return /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(value) && Number.isFinite(Number(value));
}
