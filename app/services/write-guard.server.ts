import { inTransaction } from "~db/client.server";
import { claimFormKey } from "~/models/form-submission.server";
import { EDIT_CONFLICT_CODE } from "~/schemas/write-guard";
import { formatDateTime } from "~/util/dates";
import { conflict, notFound, type ServiceError } from "./service-error";

/**
 * The rule for every record staff edit (enquiries, contact queries, courses, batches, reviews, users, the site
 * settings): a form or API write says which version it was drawn from, and one drawn from an older version is
 * refused with what the record holds now, never written over the newer change; a form's key is used once, so a
 * repeat of the same post (a double click, a refresh, a resubmit) changes nothing.
 */

/** What every versioned record carries. */
export type Versioned = { version: number; updatedAt: string; updatedBy: string | null };
/** What a write says it was drawn from (app/schemas/write-guard.ts): the version read and the form's one-time key. */
export type WriteGuard = { version?: number; formKey?: string };

/**
 * "This batch was changed by Priya Sharma at Nov 28, 2026, 4:54 AM IST. Here is what it holds now." (409
 * edit_conflict). `current` is the record as stored now, for the API's answer (as its GET answers it).
 */
export function editConflict(thing: string, now: Versioned, current?: unknown, { plural = false } = {}): ServiceError {
  const by = `${now.updatedBy || "someone"} at ${formatDateTime(now.updatedAt)} IST`;
  const message = plural
    ? `These ${thing} were changed by ${by}. Here is what they hold now.`
    : `This ${thing} was changed by ${by}. Here is what it holds now.`;
  const error = conflict(message, {}, EDIT_CONFLICT_CODE);
  if (current !== undefined) error.current = current;
  return error;
}

/** One kind of record under the rule: its name in the message, the scope of its form keys, how to read it. */
export type GuardedRecord<T extends Versioned> = {
  thing: string;
  /** "These site settings were changed …" */
  plural?: boolean;
  /** Form keys are claimed as `<scope>:<key>`. */
  scope: string;
  read: () => Promise<T | null>;
  /** Its name in "… not found" (404). */
  notFoundName: string;
  /** The record as the API answers it, for a refusal's `current` (left out: the message only). */
  answer?: (now: T) => unknown;
};

/**
 * One guarded write, in one transaction: the record is read; a repeat of the form's key changes nothing and answers
 * `repeat(before)`; a version older than the stored one is refused (editConflict); otherwise `work` writes. Inside
 * `work`, the row's UPDATE must also say `WHERE version = before.version` (app/models/versioning.server.ts) and call
 * `changedMeanwhile` when it changed nothing, so a change committed between the read and the write is refused too.
 */
export async function guardedWrite<T extends Versioned, R>(
  record: GuardedRecord<T>,
  guard: WriteGuard,
  work: (before: T) => Promise<R>,
  repeat: (before: T) => R | Promise<R>,
): Promise<R> {
  return inTransaction(async () => {
    const before = await record.read();
    if (!before) throw notFound(record.notFoundName);
    if (guard.formKey && !(await claimFormKey(`${record.scope}:${guard.formKey}`))) return repeat(before);
    if (guard.version !== undefined && guard.version !== before.version) throw editConflict(record.thing, before, record.answer?.(before), record);
    return work(before);
  });
}

/** The conditional UPDATE changed nothing: the record was changed (or deleted) since it was read. */
export async function changedMeanwhile<T extends Versioned>(record: GuardedRecord<T>): Promise<never> {
  const now = await record.read();
  throw now ? editConflict(record.thing, now, record.answer?.(now), record) : notFound(record.notFoundName);
}
