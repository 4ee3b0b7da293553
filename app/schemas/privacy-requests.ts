import * as z from "zod/mini";
import { optionalText, requiredEmail } from "./fields";

/**
 * The privacy requests a person or staff make (the server reads these; kept apart from app/schemas/privacy.ts, whose
 * fields ship to the browser with the public forms, so these never do).
 */

/** "Where is my enquiry?": the address the link goes to (if we have anything from it). */
export const meLinkRequestSchema = z.object({ email: requiredEmail() });

/** Correcting one's own name or phone on /me: each optional, at least one. */
export const ME_CORRECTION_NOTHING = "Enter a new name or phone number";
export const meCorrectionSchema = z
  .object({ name: optionalText(100, "Name"), phone: optionalText(20, "Phone") })
  .check(z.refine((v) => v.name !== undefined || v.phone !== undefined, { path: ["name"], message: ME_CORRECTION_NOTHING }));

/** POST /api/people/erase: whose personal data to erase: every record with this e-mail (as sender or guardian). */
export const eraseRequestSchema = z.object({ email: requiredEmail() });
