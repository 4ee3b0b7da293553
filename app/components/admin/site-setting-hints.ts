import { SITE_SETTING_FIELDS, type SiteSettingKey, type SiteSettings } from "~/schemas/site-settings";

/**
 * A setting's hint as the screen shows it: where a hint gives an example of what the site shows (a figure, an invoice
 * number, the reminder days), the example is made of the setting's current value, not of the shipped default
 * (issue 37.10: "settings hints follow the current values").
 */
export function settingHint(key: SiteSettingKey, values: SiteSettings, today = new Date()): string | undefined {
  const v = values;
  switch (key) {
    case "studentsTrained":
      return `Shown as "${v.studentsTrained}+ Students Trained".`;
    case "coursesClaimed":
      return `Shown as "${v.coursesClaimed}+ Specialized Courses". The dashboard warns while fewer than ${v.coursesClaimed} courses are published.`;
    case "placementAssistance":
      return `A service, not an outcome: shown as “${v.placementAssistance}% Placement Assistance${v.placementAssistance >= 100 ? ", for every student" : ""}”.`;
    case "rating":
      return `Shown as "${Number(v.rating).toFixed(1)}/5". The dashboard warns when it is higher than the average of approved reviews.`;
    case "ratingCount":
      return `Shown as "${v.ratingCount}+ reviews".`;
    case "recommendRate":
      return `Shown as "${v.recommendRate}% Would Recommend Us" on the reviews page.`;
    case "placementRate":
      return `An outcome: shown as "${v.placementRate}% placed".`;
    case "invoicePrefix": {
      const p = v.invoicePrefix;
      const fy = financialYear(today);
      return `Numbers read ${p}/${fy}/0001 (credit notes ${p}/${fy}/CN0001, receipts ${p}/${fy}/R0001).`;
    }
    case "sacCode":
      return v.sacCode === "999293"
        ? "999293: commercial training and coaching services."
        : `Now ${v.sacCode}. (999293 is commercial training and coaching services.)`;
    case "reminderDays":
      return `Now: ${describeReminderDays(v.reminderDays)}. Negative: before the due date; 0: on the day. Each reminder goes once, never to someone who has paid.`;
    default: {
      const f = SITE_SETTING_FIELDS[key];
      return "hint" in f ? f.hint : undefined;
    }
  }
}

/** "2026-27" for a day from April 2026 to March 2027 (India's financial year), in India's time. */
function financialYear(day: Date): string {
  const [year, month] = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata", year: "numeric", month: "2-digit" }).format(day).split("-").map(Number);
  const start = month >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
}

/** "-3, 0, 3, 7" as "3 days before the due date, on the day, 3 days after, 7 days after". */
export function describeReminderDays(days: string): string {
  const list = days
    .split(",")
    .map((d) => Number(d.trim()))
    .filter((d) => Number.isInteger(d));
  if (!list.length) return "none";
  const word = (n: number) => `${Math.abs(n)} day${Math.abs(n) === 1 ? "" : "s"}`;
  return list.map((d) => (d === 0 ? "on the due date" : d < 0 ? `${word(d)} before` : `${word(d)} after`)).join(", ");
}
