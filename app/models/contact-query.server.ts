import type { Selectable } from "kysely";
import { db } from "~db/client.server";
import type { ContactQueriesTable } from "~db/schema";
import { newId, nowIso } from "~/lib/ids";
import { contains, phoneDigits, phoneSearchDigits, pageBounds, toPage, type Page, type PageInput } from "./paging.server";

import { CONTACT_STATUSES } from "~/schemas/contact-query";

export { CONTACT_STATUSES };
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

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
};

export type ContactQueryInput = {
  name: string;
  email: string;
  phone?: string | null;
  subject?: string | null;
  message: string;
};

function toContactQuery({ phoneDigits: _searchOnly, ...row }: Selectable<ContactQueriesTable>): ContactQuery {
  return { ...row, status: row.status as ContactStatus };
}

export type ContactQueryFilter = PageInput & { status?: string; q?: string };

function filtered(filter: ContactQueryFilter) {
  let q = db().selectFrom("contact_queries");
  if (filter.status) q = q.where("status", "=", filter.status);
  const term = filter.q?.trim();
  if (term) {
    const digits = phoneSearchDigits(term);
    q = q.where((eb) =>
      eb.or([
        contains("name", term),
        contains("email", term),
        contains("phone", term),
        ...(digits ? [contains("phoneDigits", digits)] : []),
      ]),
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

export async function getContactQuery(id: string): Promise<ContactQuery | null> {
  const row = await db().selectFrom("contact_queries").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toContactQuery(row) : null;
}

export async function createContactQuery(input: ContactQueryInput, opts: { id?: string; createdAt?: string } = {}): Promise<ContactQuery> {
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
    })
    .execute();
  return (await getContactQuery(id))!;
}

export async function setContactQueryStatus(id: string, status: ContactStatus): Promise<ContactQuery | null> {
  const r = await db().updateTable("contact_queries").set({ status, updatedAt: nowIso() }).where("id", "=", id).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  return getContactQuery(id);
}

export async function deleteContactQuery(id: string): Promise<boolean> {
  const r = await db().deleteFrom("contact_queries").where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
