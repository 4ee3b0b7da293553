import { forgetFormKeys } from "~/models/form-submission.server";

/**
 * Tidying that keeps tables from growing without end. The keys of applied staff form posts only need to outlive
 * the pages that could post them again (a tab left open, the browser's history): a week.
 */
export const HOUSEKEEPING_EVERY_MS = 60 * 60_000;
const FORM_KEY_DAYS = 7;

export async function runHousekeeping(now = new Date()): Promise<void> {
  await forgetFormKeys(new Date(now.getTime() - FORM_KEY_DAYS * 86_400_000).toISOString());
}
