import type { Selectable, Updateable } from "kysely";
import { db } from "~db/client.server";
import type { EnquiriesTable } from "~db/schema";
import { newId, nowIso } from "~/lib/ids";
import { contains, phoneDigits, phoneSearchDigits, listToText, pageBounds, parseList, toPage, type Page, type PageInput } from "./paging.server";

import { ENQUIRY_STATUSES, PREFERRED_MODES } from "~/schemas/enquiry";

export { ENQUIRY_STATUSES, PREFERRED_MODES };
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number];
export type PreferredMode = (typeof PREFERRED_MODES)[number];

export type Enquiry = {
  id: string;
  fullName: string;
  email: string;
  phone: string;
  preferredCourse: string;
  preferredMode: PreferredMode;
  message: string;
  whatsappNotifications: boolean;
  filePaths: string[];
  status: EnquiryStatus;
  createdAt: string;
  updatedAt: string;
};

export type EnquiryInput = {
  fullName: string;
  email: string;
  phone: string;
  preferredCourse: string;
  preferredMode: PreferredMode;
  message?: string;
  whatsappNotifications?: boolean;
  filePaths?: string[];
};

function toEnquiry({ phoneDigits: _searchOnly, ...row }: Selectable<EnquiriesTable>): Enquiry {
  return {
    ...row,
    preferredMode: row.preferredMode as PreferredMode,
    status: row.status as EnquiryStatus,
    whatsappNotifications: Boolean(row.whatsappNotifications),
    filePaths: parseList(row.filePaths),
  };
}

export type EnquiryFilter = PageInput & { status?: string; q?: string; course?: string; mode?: string };

function filtered(filter: EnquiryFilter) {
  let q = db().selectFrom("enquiries");
  if (filter.status) q = q.where("status", "=", filter.status);
  if (filter.course) q = q.where("preferredCourse", "=", filter.course);
  if (filter.mode) q = q.where("preferredMode", "=", filter.mode);
  const term = filter.q?.trim();
  if (term) {
    const digits = phoneSearchDigits(term);
    q = q.where((eb) =>
      eb.or([
        contains("fullName", term),
        contains("email", term),
        contains("phone", term),
        ...(digits ? [contains("phoneDigits", digits)] : []),
      ]),
    );
  }
  return q;
}

export async function listEnquiries(filter: EnquiryFilter = {}): Promise<Page<Enquiry>> {
  const { page, limit, offset } = pageBounds(filter);
  const q = filtered(filter);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows.map(toEnquiry), Number(count.n), page, limit);
}

export async function countEnquiries(status?: EnquiryStatus): Promise<number> {
  let q = db().selectFrom("enquiries");
  if (status) q = q.where("status", "=", status);
  const r = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function getEnquiry(id: string): Promise<Enquiry | null> {
  const row = await db().selectFrom("enquiries").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toEnquiry(row) : null;
}

/** Status is always "new" on create; a caller cannot choose it. */
export async function createEnquiry(input: EnquiryInput, opts: { id?: string; createdAt?: string } = {}): Promise<Enquiry> {
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? nowIso();
  await db()
    .insertInto("enquiries")
    .values({
      id,
      fullName: input.fullName,
      email: input.email,
      phone: input.phone,
      phoneDigits: phoneDigits(input.phone),
      preferredCourse: input.preferredCourse,
      preferredMode: input.preferredMode,
      message: input.message ?? "",
      whatsappNotifications: input.whatsappNotifications === false ? 0 : 1,
      filePaths: listToText(input.filePaths),
      status: "new",
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return (await getEnquiry(id))!;
}

export async function updateEnquiry(id: string, input: Partial<EnquiryInput> & { status?: EnquiryStatus }): Promise<Enquiry | null> {
  const values: Updateable<EnquiriesTable> = { updatedAt: nowIso() };
  if (input.fullName !== undefined) values.fullName = input.fullName;
  if (input.email !== undefined) values.email = input.email;
  if (input.phone !== undefined) {
    values.phone = input.phone;
    values.phoneDigits = phoneDigits(input.phone);
  }
  if (input.preferredCourse !== undefined) values.preferredCourse = input.preferredCourse;
  if (input.preferredMode !== undefined) values.preferredMode = input.preferredMode;
  if (input.message !== undefined) values.message = input.message;
  if (input.whatsappNotifications !== undefined) values.whatsappNotifications = input.whatsappNotifications ? 1 : 0;
  if (input.filePaths !== undefined) values.filePaths = listToText(input.filePaths);
  if (input.status !== undefined) values.status = input.status;
  const r = await db().updateTable("enquiries").set(values).where("id", "=", id).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  return getEnquiry(id);
}

export async function setEnquiryStatus(id: string, status: EnquiryStatus): Promise<Enquiry | null> {
  return updateEnquiry(id, { status });
}

/** Returns the deleted enquiry so its attached files can be removed. */
export async function deleteEnquiry(id: string): Promise<Enquiry | null> {
  const enquiry = await getEnquiry(id);
  if (!enquiry) return null;
  await db().deleteFrom("enquiries").where("id", "=", id).execute();
  return enquiry;
}
