import { db } from "~db/client.server";

/**
 * The rate_limits table's housekeeping. The counting itself is rate-limiter-flexible's own SQL, on the raw
 * driver (app/infra/rate-limit.server.ts).
 */

/** Deletes rows whose window or block ended before `expiredBefore` (milliseconds since the epoch). */
export async function deleteRateLimitsExpiredBefore(expiredBefore: number): Promise<void> {
  await db().deleteFrom("rate_limits").where("expire", "<", expiredBefore).execute();
}

/** Empties the table (tests). */
export async function deleteAllRateLimits(): Promise<void> {
  await db().deleteFrom("rate_limits").execute();
}
