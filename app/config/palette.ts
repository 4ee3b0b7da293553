/**
 * The syllabus editor's text colour and background palette (DESIGN.md §4.10). The Markdown holds
 * `<span style="color: #b91c1c">…</span>`; the sanitiser keeps exactly these values and drops any other style.
 */
export const TEXT_COLORS = [
  { name: "Default", value: "" },
  { name: "Red", value: "#b91c1c" },
  { name: "Orange", value: "#c2410c" },
  { name: "Green", value: "#15803d" },
  { name: "Blue", value: "#1d4ed8" },
  { name: "Purple", value: "#7e22ce" },
  { name: "Grey", value: "#4b5563" },
] as const;

export const BACKGROUND_COLORS = [
  { name: "None", value: "" },
  { name: "Yellow", value: "#fef08a" },
  { name: "Green", value: "#bbf7d0" },
  { name: "Blue", value: "#bfdbfe" },
  { name: "Pink", value: "#fbcfe8" },
  { name: "Grey", value: "#e5e7eb" },
] as const;
