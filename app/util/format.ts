/** "Jan 5, 2027": one formatter for the public pages and the back office (app/util/dates.ts). */
export { formatDate } from "./dates";

/** Share of seats already taken, 0 to 100: the seat bar's fill (spec §4). */
export function seatFillPercent(seats: number, totalSeats: number): number {
  if (!(totalSeats > 0)) return 0;
  const taken = ((totalSeats - seats) / totalSeats) * 100;
  return Math.min(100, Math.max(0, Math.round(taken)));
}

export function capitalize(word: string): string {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** How long ago, in the words a list shows next to a New enquiry: "35 min", "5 h", "3 days". */
export function ageText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}
