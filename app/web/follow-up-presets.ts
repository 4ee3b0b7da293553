import { nextDay, siteToday } from "~/util/dates";

const dayLabel = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });

/** "Sat, Nov 28" for a YYYY-MM-DD day. */
function shortDay(day: string): string {
  return dayLabel.format(new Date(`${day}T00:00:00Z`)).replace(/[\u202f\u00a0]/g, " ");
}

function addDays(day: string, n: number): string {
  let d = day;
  for (let i = 0; i < n; i++) d = nextDay(d);
  return d;
}

/**
 * The Log activity form's follow-up presets, at 10:00 in Hyderabad: tomorrow, in 3 days, next Monday (a week on
 * when today is Monday). Each value is a datetime-local value the server reads as Hyderabad time, computed when
 * the form is drawn, so the label and the saved time agree.
 */
export function followUpPresets(now: Date): { value: string; label: string }[] {
  const today = siteToday(now);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const toMonday = (8 - weekday) % 7 || 7;
  const at = (day: string) => `${day}T10:00`;
  const tomorrow = addDays(today, 1);
  const inThree = addDays(today, 3);
  const monday = addDays(today, toMonday);
  const presets = [
    { value: at(tomorrow), label: `Tomorrow 10:00 AM (${shortDay(tomorrow)})` },
    { value: at(inThree), label: `In 3 days (${shortDay(inThree)}, 10:00 AM)` },
    { value: at(monday), label: `Next Monday (${shortDay(monday)}, 10:00 AM)` },
  ];
  // On a Sunday next Monday is tomorrow, on a Friday it is in 3 days: one choice per time, named both ways.
  const out: { value: string; label: string }[] = [];
  for (const p of presets) {
    const same = out.find((q) => q.value === p.value);
    if (same) same.label = `${same.label.replace(/ \(.*$/, "")} · ${p.label}`;
    else out.push({ ...p });
  }
  return out;
}
