import { SHOWN_TO_STAFF, type ContactStatus } from "~/schemas/values";
import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import type { ContactQueriesTable } from "~db/schema";
import { newId, nowIso } from "~/util/ids";
import { phoneDigits, phoneSearchDigits } from "~/util/phone";
import { contains, newestFirstPages, olderThan, pageBounds, toPage, type Page, type PageInput } from "./paging.server";

export type ContactQuery = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string | null;
  message: string;
  status: ContactStatus;
  createdAt: string;
  updatedAt: string;
  /** One more on every change (a form drawn from an older one is refused), and who made it. */
  version: number;
  updatedBy: string | null;
  /** Privacy (app/schemas/privacy.ts), as on enquiries. */
  under18: boolean;
  guardianName: string | null;
  guardianEmail: string | null;
  guardianConsentAt: string | null;
  marketingConsent: boolean;
  noticeVersion: string;
};

export type ContactQueryInput = {
  name: string;
  email: string;
  phone?: string | null;
  subject?: string | null;
  message: string;
  under18?: boolean;
  guardianName?: string | null;
  guardianEmail?: string | null;
  marketingConsent?: boolean;
  noticeVersion?: string;
  /** "held": a minor's message, kept from staff until a guardian consents. */
  privacyState?: "" | "held";
};

export function toContactQuery({ phoneDigits: _searchOnly, privacyState: _state, erasedAt: _erased, ...row }: Selectable<ContactQueriesTable>): ContactQuery {
  return {
    ...row,
    version: Number(row.version),
    status: row.status as ContactStatus,
    under18: Boolean(row.under18),
    marketingConsent: Boolean(row.marketingConsent),
  };
}

export type ContactQueryFilter = PageInput & { status?: string; q?: string };

function filtered(filter: ContactQueryFilter) {
  let q = db().selectFrom("contact_queries").where("privacyState", "=", SHOWN_TO_STAFF);
  if (filter.status) q = q.where("status", "=", filter.status);
  const term = filter.q?.trim();
  if (term) {
    const digits = phoneSearchDigits(term);
    q = q.where((eb) =>
      eb.or([contains("name", term), contains("email", term), contains("phone", term), ...(digits ? [contains("phoneDigits", digits)] : [])]),
    );
  }
  return q;
}

export async function listContactQueries(filter: ContactQueryFilter = {}): Promise<Page<ContactQuery>> {
  const { page, limit, offset } = pageBounds(filter);
  const q = filtered(filter);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toContactQuery), Number(count.n), page, limit);
}

export async function countContactQueries(status?: ContactStatus): Promise<number> {
  let q = db().selectFrom("contact_queries");
  if (status) q = q.where("status", "=", status);
  const r = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function getContactQuery(id: string): Promise<ContactQuery | null> {
  const row = await db().selectFrom("contact_queries").selectAll().where("id", "=", id).where("privacyState", "=", SHOWN_TO_STAFF).executeTakeFirst();
  return row ? toContactQuery(row) : null;
}

export async function insertContactQuery(input: ContactQueryInput, opts: { id?: string; createdAt?: string } = {}): Promise<ContactQuery> {
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? nowIso();
  await db()
    .insertInto("contact_queries")
    .values({
      id,
      name: input.name,
      email: input.email,
      phone: input.phone || null,
      phoneDigits: phoneDigits(input.phone),
      subject: input.subject || null,
      message: input.message,
      status: "new",
      createdAt: now,
      updatedAt: now,
      privacyState: input.privacyState ?? SHOWN_TO_STAFF,
      under18: input.under18 ? 1 : 0,
      guardianName: input.guardianName ?? null,
      guardianEmail: input.guardianEmail ?? null,
      marketingConsent: input.marketingConsent ? 1 : 0,
      noticeVersion: input.noticeVersion ?? "",
    })
    .execute();
  return toContactQuery(await db().selectFrom("contact_queries").selectAll().where("id", "=", id).executeTakeFirstOrThrow());
}

/** Sets the status and adds one to the version, only while the stored version is still `version` (null otherwise, or when gone). */
export async function setContactQueryStatusRow(id: string, status: ContactStatus, version: number, updatedBy: string): Promise<ContactQuery | null> {
  const r = await db()
    .updateTable("contact_queries")
    .set((eb) => ({ status, updatedAt: nowIso(), updatedBy, version: eb("version", "+", 1) }))
    .where("id", "=", id)
    .where("version", "=", version)
    .where("privacyState", "=", SHOWN_TO_STAFF)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  return getContactQuery(id);
}

export async function deleteContactQueryRow(id: string): Promise<boolean> {
  const r = await db().deleteFrom("contact_queries").where("id", "=", id).where("privacyState", "=", SHOWN_TO_STAFF).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The list's filters read a page at a time by position (createdAt, id), for exports (see eachEnquiry). */
export async function* eachContactQuery(filter: Omit<ContactQueryFilter, "page" | "limit">, pageSize = 1000): AsyncGenerator<ContactQuery[]> {
  const pages = newestFirstPages((after) => {
    let q = filtered(filter).selectAll();
    if (after) q = q.where(olderThan(after));
    return q.orderBy("createdAt", "desc").orderBy("id", "desc").limit(pageSize).execute();
  }, pageSize);
  for await (const rows of pages) yield rows.map(toContactQuery);
}
