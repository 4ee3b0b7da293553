import { inTransaction } from "~db/client.server";
import { siteDateTimeToUtc } from "~/util/dates";
import { nowIso } from "~/util/ids";
import { publishDueRows, type Audience, type Publication, type PublishedRow } from "~/models/publication.server";
import { PUBLISH_AT_MESSAGE } from "~/schemas/publication";
import type { PublicationState } from "~/schemas/values";
import type { Actor } from "./actor";
import { record } from "./audit.server";
import { invalid } from "./service-error";

/**
 * Drafts and scheduled publishing for courses, batches and reviews. Who sees what is decided here (staff see
 * every state, everyone else published rows only: the SQL of that rule is in app/models/publication.server.ts);
 * the publishing job runs in every instance (server/app.ts).
 */
export function audienceOf(actor: Pick<Actor, "user">): Audience {
  return actor.user ? "staff" : "public";
}

/**
 * A save's checked state and publish time: undefined when no state was sent (new rows are then published, an
 * update keeps its state). Scheduled needs a publish time in the future; the other states need none.
 */
export function readPublication(values: { state?: PublicationState; publishAt?: string | null }, now = Date.now()): Publication | undefined {
  if (values.state === undefined) return undefined;
  if (values.state !== "scheduled") return { state: values.state, publishAt: null };
  const at = values.publishAt ? siteDateTimeToUtc(values.publishAt) : null;
  if (!at || Date.parse(at) <= now) throw invalid({ publishAt: PUBLISH_AT_MESSAGE });
  return { state: "scheduled", publishAt: at };
}

/** How often each instance looks for due rows: a scheduled item goes public within this (well under a minute). */
export const PUBLISH_JOB_EVERY_MS = 15_000;

const ENTITY = { courses: "course", schedules: "schedule", reviews: "review" } as const;

/**
 * The periodic job: scheduled rows whose time has come become published, with an audit row each (no user:
 * the system did it), in one transaction. Safe in several instances at once (see publishDueRows).
 */
export async function publishDueItems(now = nowIso()): Promise<PublishedRow[]> {
  return inTransaction(async () => {
    const published = await publishDueRows(now);
    const system: Actor = { user: null, ip: "", requestId: "" };
    for (const row of published)
      await record(system, "publish", ENTITY[row.table], row.id, `${row.label}: published as scheduled`, { userId: null, userName: "System" });
    return published;
  });
}
