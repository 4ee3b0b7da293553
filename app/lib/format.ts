/** "Jan 5, 2027": one formatter for the public pages and the back office (app/lib/dates.ts). */
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
