import { formatDate } from "./dates";

export type WaitlistPlace = { position: number; courseName: string; startDate: string };

/**
 * What a visitor who just joined a waitlist is told, on the form's answer and in the acknowledgement, in the same
 * words: "You are number 2 on the waitlist for SOC Analyst Training Program, starting Jan 5, 2027. When a seat frees
 * we e-mail you a link that holds it for 48 hours."
 */
export function waitlistPlaceText(place: WaitlistPlace, holdHours: number): string {
  return `You are number ${place.position} on the waitlist for ${place.courseName}, starting ${formatDate(place.startDate)}. When a seat frees we e-mail you a link that holds it for ${holdHours} hours.`;
}
