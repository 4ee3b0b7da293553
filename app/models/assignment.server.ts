import { sql } from "kysely";
import { db, dialect } from "~db/client.server";
import { nextVersion } from "./versioning.server";

/**
 * Owners on arrival: the round-robin among staff who take enquiries (users.takesEnquiries). Each new enquiry moves
 * one shared counter (assignment_rotation) and goes to the staff member whose last turn is the oldest, who then
 * holds the new turn. The counter's UPDATE locks its row until the submission's transaction ends, so arrivals on
 * several instances queue up one after another and each sees the turns the others gave: the counts stay within one.
 * Call inside the submission's transaction.
 */
export async function takeNextAssignee(): Promise<{ id: string; name: string } | null> {
  await db()
    .updateTable("assignment_rotation")
    .set({ turn: sql<number>`${sql.ref("turn")} + 1` as never })
    .where("id", "=", "enquiries")
    .execute();
  const rotation = await db().selectFrom("assignment_rotation").select("turn").where("id", "=", "enquiries").executeTakeFirst();
  if (!rotation) return null;
  let next = db()
    .selectFrom("users")
    .select(["id", "name"])
    .where("takesEnquiries", "=", 1)
    .orderBy("assignTurn", "asc")
    .orderBy("createdAt", "asc")
    .orderBy("id")
    .limit(1);
  // A locking read on MariaDB: the newest committed turns, not this transaction's snapshot.
  if (dialect() === "mysql") next = next.forUpdate();
  const user = await next.executeTakeFirst();
  if (!user) return null;
  await db()
    .updateTable("users")
    .set({ assignTurn: Number(rotation.turn) })
    .where("id", "=", user.id)
    .execute();
  return user;
}

/** Who the round-robin gives new enquiries to, and the switch staff screens show. */
/** On or off; `by` (an admin's own change, not part of a larger edit) makes it a new version of the account. */
export async function setTakesEnquiries(userId: string, on: boolean, by?: string): Promise<boolean> {
  const r = await db()
    .updateTable("users")
    .set({ takesEnquiries: on ? 1 : 0, ...(by === undefined ? {} : nextVersion(by)) })
    .where("id", "=", userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
