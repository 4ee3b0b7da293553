import type { LIST_KINDS } from "./migrations/0200-list-count-figures";
import type { Generated } from "kysely";

/** Booleans are stored as 0/1 on both databases; lists of text as JSON text; timestamps as ISO-8601 UTC strings. */
type Bool = number;

export interface CoursesTable {
  id: string;
  slug: string;
  title: string;
  category: string;
  duration: string;
  description: string;
  image: string | null;
  featured: Bool;
  highlights: string;
  modes: string;
  schedules: string;
  syllabus: string;
  syllabusFile: string | null;
  syllabusFileName: string;
  createdAt: string;
  updatedAt: string;
  state: Generated<string>;
  publishAt: string | null;
  /** Migration 0070: whole rupees, null when on request; 1 when GST is included in it. */
  fee: number | null;
  feeIncludesGst: Generated<Bool>;
  /** Migration 0120: one more on every change; who made the stored version. */
  version: Generated<number>;
  updatedBy: string | null;
}

export interface SchedulesTable {
  id: string;
  course: string;
  courseName: string;
  startDate: string;
  endDate: string;
  time: string;
  days: string;
  mode: string;
  location: string;
  seats: number;
  totalSeats: number;
  createdAt: string;
  updatedAt: string;
  state: Generated<string>;
  publishAt: string | null;
  /** Migration 0070: the batch's own price (null: the course's) and its label, e.g. Early-bird. */
  fee: number | null;
  feeLabel: Generated<string>;
  /** Migration 0120: one more on every change (seats taken and given back too); who made the stored version. */
  version: Generated<number>;
  updatedBy: string | null;
  /** Migration 0120: seats taken that no enquiry holds (from before enrolments were recorded, the demo seed). */
  seatsTakenBefore: Generated<number>;
}

export interface ReviewsTable {
  id: string;
  name: string;
  position: string;
  image: string;
  rating: number;
  review: string;
  course: string;
  type: string;
  videoThumbnail: string | null;
  linkedin: string | null;
  approved: Bool;
  createdAt: string;
  updatedAt: string;
  state: Generated<string>;
  publishAt: string | null;
  /** Migration 0120: one more on every change; who made the stored version. */
  version: Generated<number>;
  updatedBy: string | null;
}

/** Columns enquiries and contact queries both have: what a person sent is versioned and under the privacy rules. */
interface PersonRecordColumns {
  /** Migration 0015: one more on every change (a save drawn from an older one is refused), and who made it. */
  version: Generated<number>;
  updatedBy: string | null;
  /** Migration 0031 (privacy): "" | held (a minor's, until a guardian consents) | erased; the under-18 answer and guardian; marketing; notice version. */
  privacyState: Generated<string>;
  erasedAt: string | null;
  under18: Generated<Bool>;
  guardianName: string | null;
  guardianEmail: string | null;
  guardianConsentAt: string | null;
  marketingConsent: Generated<Bool>;
  noticeVersion: Generated<string>;
}

export interface EnquiriesTable extends PersonRecordColumns {
  id: string;
  fullName: string;
  email: string;
  phone: string;
  /** The phone without separators, for search (migration 0003). */
  phoneDigits: string;
  preferredCourse: string;
  preferredMode: string;
  message: string;
  whatsappNotifications: Bool;
  filePaths: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** Migration 0010: owner, next follow-up (UTC), batch, where it came from, first answer, duplicate flag. */
  assigneeId: string | null;
  followUpAt: string | null;
  scheduleId: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  referrer: string | null;
  sourceForm: Generated<string>;
  sourceLabel: Generated<string>;
  firstStatusChangeAt: string | null;
  /** The last staff action on it; when an untouched New one was escalated to the admins. */
  touchedAt: string | null;
  escalatedAt: string | null;
}

/** Both directions of a "possible duplicate" link (migration 0010). */
export interface EnquiryDuplicatesTable {
  enquiryId: string;
  otherId: string;
  createdAt: string;
}

/** Notes and recorded changes of an enquiry or contact query (migration 0010). */
export interface TimelineEntriesTable {
  id: string;
  subjectType: string;
  subjectId: string;
  at: string;
  userId: string | null;
  userName: string;
  kind: string;
  fromValue: string | null;
  toValue: string | null;
  text: string | null;
}

export interface ContactQueriesTable extends PersonRecordColumns {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  /** The phone without separators ("" when none), for search (migration 0003). */
  phoneDigits: string;
  subject: string | null;
  message: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

/** Browser sessions and API tokens ended by signing out, until they would have expired (migration 0004). */
export interface RevokedSessionsTable {
  id: string;
  expiresAt: string;
}

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  role: string;
  /** Bumped on password change; sessions and tokens carrying an older value are refused. */
  sessionVersion: Generated<number>;
  createdAt: string;
  updatedAt: string;
  /** Gets the daily digest e-mail (migration 0014; 1 by default). */
  dailyDigest: Generated<Bool>;
  /** Migration 0015: given new enquiries by the round-robin (1 by default), and the rotation turn of the last one. */
  takesEnquiries: Generated<Bool>;
  assignTurn: Generated<number>;
  /** Migration 0120: one more on every staff edit (not a password change, not the round-robin's turn); who made it. */
  version: Generated<number>;
  updatedBy: string | null;
}

/** One staff action (migration 0005). */
export interface AuditLogTable {
  id: string;
  at: string;
  userId: string | null;
  userName: string;
  ip: string;
  requestId: string;
  action: string;
  entityType: string;
  entityId: string | null;
  summary: string;
}

/** Rate-limit counts (migration 0006), written by rate-limiter-flexible's stores; the app only clears them. */
export interface RateLimitsTable {
  /** The limiter's key prefix, a colon, and the counted key. */
  key: string;
  points: Generated<number>;
  /** Unix time in milliseconds; null never expires. */
  expire: number | null;
}

/** E-mails and webhooks waiting to go out, and those that went (migration 0007). */
export interface OutboxTable {
  id: string;
  /** email | webhook */
  kind: string;
  /** What happened: enquiry.created | contact_query.created */
  event: string;
  /** Which e-mail (staff alert or acknowledgement); "" for a webhook. */
  template: string;
  /** E-mail addresses (comma-separated), or the webhook's URL. */
  recipient: string;
  /** The e-mail's subject, or the webhook's event. */
  subject: string;
  /** The webhook's exact body (JSON); "" for an e-mail, which is rendered from its record when sent. */
  payload: string;
  entityType: string | null;
  entityId: string | null;
  /** pending | sent | failed | waiting (e-mail not configured) */
  status: string;
  attempts: Generated<number>;
  lastError: string | null;
  nextAttemptAt: string;
  /** After a failed attempt past this time the row is failed instead of retried. */
  retryUntil: string;
  /** A worker holds the row until then; null or past means free to claim. */
  leaseUntil: string | null;
  /** Which claim holds the lease, so only that worker records the outcome. */
  leaseToken: string | null;
  lastAttemptAt: string | null;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One row per staff member and Hyderabad day whose daily digest is done (migration 0014). */
export interface DigestsSentTable {
  userId: string;
  day: string;
  /** The digest's outbox row; null when there was nothing to tell. */
  outboxId: string | null;
  createdAt: string;
}

/** One row (id 1): moves on every write to what public pages show (migration 0011). */
export interface ContentVersionTable {
  id: number;
  version: number;
  /** The version of the newest change that switches the public pages at once (migration 0060). */
  atOnceVersion: Generated<number>;
}

/** An enquiry on a full batch's waitlist (migration 0013). */
export interface WaitlistEntriesTable {
  id: string;
  scheduleId: string;
  enquiryId: string;
  /** waiting | offered | enrolled | expired | declined | withdrawn */
  status: string;
  joinedAt: string;
  updatedAt: string;
}

/** A freed seat offered to the first waiting enquirer, held until accepted or closed (migration 0013). */
export interface WaitlistOffersTable {
  id: string;
  entryId: string;
  scheduleId: string;
  enquiryId: string;
  /** SHA-256 (hex) of the link's token; the token itself is only in the e-mail. */
  tokenHash: string;
  /** open | accepted | expired | declined | withdrawn */
  status: string;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
}

/** One backup run, scheduled (id "scheduled:<slot start>") or made with npm run backup (migration 0040). */
export interface BackupRunsTable {
  id: string;
  /** scheduled | manual */
  kind: string;
  /** running | done | failed */
  status: string;
  attempts: Generated<number>;
  startedAt: string;
  finishedAt: string | null;
  leaseUntil: string | null;
  leaseToken: string | null;
  runner: string;
  archive: string | null;
  bytes: number | null;
  snapshotAt: string | null;
  error: string | null;
}

/** Migration 0120: the one version of the whole set of site settings (one row, id "site"), moved by every save. */
export interface SiteSettingsVersionTable {
  id: string;
  version: number;
  updatedAt: string;
  updatedBy: string | null;
}

/** One site setting that differs from its default (migration 0030): the value as JSON text. */
export interface SiteSettingsTable {
  key: string;
  value: string;
  updatedAt: string;
  updatedBy: Generated<string>;
}

/** A consent given or withdrawn (migration 0031), by record id only: it holds nothing that names the person. */
export interface ConsentsTable {
  id: string;
  subjectType: string;
  subjectId: string;
  /** notice | marketing | guardian */
  purpose: string;
  /** given | withdrawn */
  action: string;
  channel: string;
  noticeVersion: string;
  at: string;
}

/** A link mailed to a visitor (/me) or a guardian (consent page), kept as its token's SHA-256 (migration 0031). */
export interface PrivacyLinksTable {
  id: string;
  /** me | guardian */
  kind: string;
  tokenHash: string;
  subjectType: string;
  subjectId: string;
  createdAt: string;
  expiresAt: string;
  /** Migration 0110: SHA-256 of the address a /me link was mailed to; null for a guardian link (or an old /me link that no longer opens). */
  addressHash: string | null;
}

/** Migration 0110: an e-mail or phone number written in a timeline line, normalised ("email:…", "phone:<10 digits>"). */
export interface ContactMentionsTable {
  mention: string;
  entryId: string;
}

/**
 * Migration 0170: per Hyderabad day of arrival, how many enquiries (not held) have each status, course and source
 * now, and how many are New and never answered; kept by triggers (the dashboard's running totals).
 */
export interface EnquiryDayFiguresTable {
  day: string;
  /** The dashboard's (migration 0170) and the lists' (migration 0200, "list…"). */
  kind: "status" | "course" | "source" | "unanswered" | (typeof LIST_KINDS)[number]["kind"];
  value: string;
  n: number;
}

export interface Database {
  courses: CoursesTable;
  schedules: SchedulesTable;
  reviews: ReviewsTable;
  enquiries: EnquiriesTable;
  contact_queries: ContactQueriesTable;
  users: UsersTable;
  revoked_sessions: RevokedSessionsTable;
  audit_log: AuditLogTable;
  enquiry_duplicates: EnquiryDuplicatesTable;
  enquiry_day_figures: EnquiryDayFiguresTable;
  timeline_entries: TimelineEntriesTable;
  rate_limits: RateLimitsTable;
  outbox: OutboxTable;
  content_version: ContentVersionTable;
  digests_sent: DigestsSentTable;
  waitlist_entries: WaitlistEntriesTable;
  waitlist_offers: WaitlistOffersTable;
  assignment_rotation: AssignmentRotationTable;
  form_submissions: FormSubmissionsTable;
  backup_runs: BackupRunsTable;
  site_settings: SiteSettingsTable;
  site_settings_version: SiteSettingsVersionTable;
  consents: ConsentsTable;
  privacy_links: PrivacyLinksTable;
  contact_mentions: ContactMentionsTable;
  fee_plans: FeePlansTable;
  fee_accounts: FeeAccountsTable;
  fee_dues: FeeDuesTable;
  number_series: NumberSeriesTable;
  invoices: InvoicesTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  upi_reports: UpiReportsTable;
  fee_concessions: FeeConcessionsTable;
  gateway_orders: GatewayOrdersTable;
  gateway_events: GatewayEventsTable;
  fee_reminders: FeeRemindersTable;
}

/** Migration 0015: the round-robin's counter (one row, id "enquiries"). */
export interface AssignmentRotationTable {
  id: string;
  turn: number;
}

/** Migration 0015: the key of every staff form post applied, so a repeat of it changes nothing. */
export interface FormSubmissionsTable {
  key: string;
  createdAt: string;
}

// ---------------------------------------------------------------- fees (migration 0130): money in whole paise

/** A fee plan: `terms` is JSON (instalments, deposit, early-bird: app/util/fee-schedule.ts PlanTerms). */
export interface FeePlansTable {
  id: string;
  name: string;
  courseId: string | null;
  scheduleId: string | null;
  isDefault: Bool;
  terms: string;
  archived: Generated<Bool>;
  version: Generated<number>;
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
}

/** One enrolment's fees: the price and plan it was enrolled on, who is billed and their state (place of supply). */
export interface FeeAccountsTable {
  id: string;
  enquiryId: string;
  scheduleId: string | null;
  courseTitle: string;
  planId: string | null;
  planName: string;
  listPricePaise: number;
  discountPaise: Generated<number>;
  billingName: string;
  billingState: string;
  /** active | ended */
  status: string;
  version: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface FeeDuesTable {
  id: string;
  accountId: string;
  enquiryId: string;
  seq: number;
  label: string;
  dueDate: string;
  amountPaise: number;
  /** Derived from the account's payments (oldest due first) in every transaction that moves money. */
  paidPaise: Generated<number>;
  /** open | paid | cancelled */
  status: string;
  paidAt: string | null;
  invoiceId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** "invoice:2026-27" → the last serial issued in that series and financial year. */
export interface NumberSeriesTable {
  id: string;
  lastSerial: number;
}

export interface InvoicesTable {
  id: string;
  /** tax_invoice | invoice | credit_note */
  kind: string;
  series: string;
  fy: string;
  serial: number;
  number: string;
  /** issued | cancelled (by a credit note) */
  status: string;
  dueId: string | null;
  accountId: string;
  enquiryId: string;
  issuedAt: string;
  issuedOn: string;
  sellerName: string;
  sellerAddress: string;
  sellerGstin: string;
  sellerState: string;
  buyerName: string;
  buyerState: string;
  sac: string;
  description: string;
  taxablePaise: number;
  cgstBp: number;
  cgstPaise: number;
  sgstBp: number;
  sgstPaise: number;
  igstBp: number;
  igstPaise: number;
  totalPaise: number;
  amountWords: string;
  /** A credit note: the invoice it cancels. An invoice: the credit note that cancelled it. */
  refInvoiceId: string | null;
  cancelledById: string | null;
  reason: string | null;
  createdBy: string;
}

export interface PaymentsTable {
  id: string;
  /** The receipt's number (<prefix>/<fy>/R<serial>). */
  number: string;
  fy: string;
  serial: number;
  accountId: string;
  enquiryId: string;
  method: string;
  reference: string;
  amountPaise: number;
  receivedOn: string;
  /** recorded | reversed */
  status: string;
  note: string;
  gatewayPaymentId: string | null;
  payerName: string;
  recordedBy: string;
  createdAt: string;
  reversedAt: string | null;
  reversedBy: string | null;
  reversalReason: string | null;
}

export interface RefundsTable {
  id: string;
  paymentId: string;
  accountId: string;
  amountPaise: number;
  reason: string;
  gatewayRefundId: string | null;
  createdAt: string;
  createdBy: string;
}

export interface UpiReportsTable {
  id: string;
  dueId: string;
  accountId: string;
  enquiryId: string;
  utr: string;
  amountPaise: number;
  /** pending | confirmed | rejected */
  status: string;
  reportedAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  paymentId: string | null;
}

export interface FeeConcessionsTable {
  id: string;
  accountId: string;
  enquiryId: string;
  kind: string;
  amountPaise: number;
  reason: string;
  /** pending | approved | rejected */
  status: string;
  requestedBy: string;
  requestedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
}

export interface GatewayOrdersTable {
  id: string;
  dueId: string;
  accountId: string;
  enquiryId: string;
  orderId: string;
  linkId: string | null;
  linkUrl: string | null;
  amountPaise: number;
  receipt: string;
  /** created | paid | failed */
  status: string;
  createdAt: string;
  updatedAt: string;
}

export interface GatewayEventsTable {
  eventId: string;
  type: string;
  receivedAt: string;
}

/** One row per reminder sent (key "<dueId>:<stage>"): a second instance's insert fails and sends nothing. */
export interface FeeRemindersTable {
  key: string;
  dueId: string;
  stage: string;
  createdAt: string;
}
