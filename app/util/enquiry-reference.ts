/**
 * The reference a visitor quotes for an enquiry ("ENQ-3F9A12BC"): the first 8 hex digits of its id, in capitals.
 * New enquiries get an id whose first 8 digits no other enquiry has (app/services/enquiry-submissions.server.ts),
 * so staff searching for the reference find exactly that enquiry.
 */
export const REFERENCE_PREFIX = "ENQ-";
const REFERENCE_DIGITS = 8;

export function enquiryReference(id: string): string {
  return `${REFERENCE_PREFIX}${id.slice(0, REFERENCE_DIGITS).toUpperCase()}`;
}

/** The id's first 8 digits (lower case, as ids are stored) that a typed reference names, or null when it is no reference. */
export function referenceIdPrefix(term: string | undefined | null): string | null {
  const m = /^\s*ENQ[-\s]?([0-9a-f]{8})\s*$/i.exec(term ?? "");
  return m ? m[1].toLowerCase() : null;
}

/** The first 8 digits of an id (what its reference shows). */
export const idReferencePrefix = (id: string) => id.slice(0, REFERENCE_DIGITS).toLowerCase();
