import { randomUUID } from "node:crypto";

/** Opaque record id, made in the app so inserts need no RETURNING on either database. */
export function newId(): string {
  return randomUUID();
}

/**
 * A UUIDv7 (RFC 9562): the time in milliseconds first, then random bits. Rows with such ids go in at the
 * end of their primary-key index instead of at a random place in it, so a busy table (the outbox) writes
 * one index page per commit rather than one per row, and fewer pages split. Within one process the ids also
 * increase strictly (the RFC's 12-bit counter after the time), so rows made in the same millisecond, like the
 * timeline lines of one change, keep the order they were made in.
 */
export function newTimeOrderedId(now = Date.now()): string {
  // A v4 UUID (Node keeps its random bytes in a cache, so this is far cheaper than randomBytes per call)
  // with its first 48 bits replaced by the time, its version digit by 7 and the next 12 bits by the counter.
  const random = randomUUID();
  if (now > lastMs) {
    lastMs = now;
    // A random start in the lower half leaves room to count up within the millisecond.
    counter = Number.parseInt(random.slice(15, 18), 16) & 0x7ff;
  } else if (++counter > 0xfff) {
    // Over 2,048 ids in one millisecond (or the clock went back): borrow the next millisecond.
    lastMs++;
    counter = 0;
  }
  const time = lastMs.toString(16).padStart(12, "0");
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, "0")}${random.slice(18)}`;
}

let lastMs = -1;
let counter = 0;

export function nowIso(): string {
  return new Date().toISOString();
}
