import { randomUUID } from "node:crypto";

/** Opaque record id, made in the app so inserts need no RETURNING on either database. */
export function newId(): string {
  return randomUUID();
}

export function nowIso(): string {
  return new Date().toISOString();
}
