/**
 * Every fixed list of values in the product, with its labels, in one place: the schemas, the forms, tabs,
 * badges, filters, "must be one of" messages and the OpenAPI enums are all built from these. No imports but
 * public-values.ts: public pages take their labels from these files without pulling in zod.
 */

// The public lists (modes, course levels) live in public-values.ts so a visitor's page loads only them.
export * from "./public-values";

export const ENQUIRY_STATUSES = ["new", "contacted", "enrolled", "closed"] as const;
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number];
export const ENQUIRY_STATUS_LABELS: Record<EnquiryStatus, string> = { new: "New", contacted: "Contacted", enrolled: "Enrolled", closed: "Closed" };

export const CONTACT_STATUSES = ["new", "replied", "closed"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
export const CONTACT_STATUS_LABELS: Record<ContactStatus, string> = { new: "New", replied: "Replied", closed: "Closed" };

/** The label of either inbox's status (enquiries and contact queries share the screens' words); unknown values as they are. */
export function inboxStatusLabel(status: string): string {
  return (ENQUIRY_STATUS_LABELS as Record<string, string>)[status] ?? (CONTACT_STATUS_LABELS as Record<string, string>)[status] ?? status;
}

export const USER_ROLES = ["editor", "admin"] as const;
export type Role = (typeof USER_ROLES)[number];
export const USER_ROLE_LABELS: Record<Role, string> = { editor: "Editor", admin: "Admin" };

export const REVIEW_TYPES = ["text", "video"] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];
export const REVIEW_TYPE_LABELS: Record<ReviewType, string> = { text: "Text", video: "Video" };

/**
 * Whether a course, batch or review is public: a draft is not, a scheduled one becomes published at its publish
 * time (a periodic job flips it), a published one is. Rows made without a state are published.
 */
export const PUBLICATION_STATES = ["draft", "scheduled", "published"] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];
export const PUBLICATION_STATE_LABELS: Record<PublicationState, string> = { draft: "Draft", scheduled: "Scheduled", published: "Published" };

/** The admin list's tabs and the API's ?status= filter. */
export const REVIEW_STATUSES = ["approved", "pending"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = { approved: "Approved", pending: "Pending" };

/** What a staff action did, as the audit log records it. */
export const AUDIT_ACTIONS = [
  "create",
  "update",
  "delete",
  "status",
  "approve",
  "note",
  "password",
  "role",
  "sign-in",
  "sign-in-failed",
  "sign-out",
  "resend",
  "publish",
  "erase",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  create: "Created",
  update: "Updated",
  delete: "Deleted",
  status: "Status changed",
  approve: "Approved",
  note: "Note added",
  password: "Password changed",
  role: "Role changed",
  "sign-in": "Signed in",
  "sign-in-failed": "Sign-in failed",
  "sign-out": "Signed out",
  resend: "Sent again",
  publish: "Published",
  erase: "Personal data erased",
};

/** What an audited action was done to. */
export const AUDIT_ENTITY_TYPES = [
  "course",
  "schedule",
  "review",
  "enquiry",
  "contact_query",
  "user",
  "session",
  "outbox",
  "settings",
  "person",
  "fee_plan",
  "invoice",
  "payment",
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];
export const AUDIT_ENTITY_LABELS: Record<AuditEntityType, string> = {
  course: "Course",
  schedule: "Schedule",
  review: "Review",
  enquiry: "Enquiry",
  contact_query: "Contact query",
  user: "User",
  session: "Session",
  outbox: "Outbox message",
  settings: "Site settings",
  // Erasures (on request, or by the retention job): the entry names record ids and counts, never the person.
  person: "Person (privacy)",
  fee_plan: "Fee plan",
  invoice: "Invoice or credit note",
  payment: "Payment",
};

/** The outbox (e-mails and webhooks to deliver): its tabs, badges and the API's ?status= filter. */
export const OUTBOX_STATUSES = ["pending", "sent", "failed", "waiting"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: "Pending",
  sent: "Sent",
  failed: "Failed",
  // An e-mail made while SMTP_URL is unset: it goes out once the app starts with e-mail configured.
  waiting: "Waiting for configuration",
};

export const OUTBOX_KINDS = ["email", "webhook"] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];
export const OUTBOX_KIND_LABELS: Record<OutboxKind, string> = { email: "E-mail", webhook: "Webhook" };

/** What a message is about; a webhook's event type. */
export const OUTBOX_EVENTS = [
  "enquiry.created",
  "contact_query.created",
  "enquiry.status_changed",
  "staff.digest",
  "enquiry.enrolled",
  "enquiry.waitlist_offer",
  "enquiry.escalated",
  // A link to the visitor's own records (/me), asked for with "Where is my enquiry?".
  "privacy.me_link",
  // A minor's enquiry or message: the consent request to the parent or guardian.
  "privacy.guardian_consent",
  // Fees (issue 38): the receipt e-mail of a payment and the payment.received webhook; a due's reminders (e-mail and
  // the fee.reminder webhook for a WhatsApp gateway); a due past its date unpaid (invoice.overdue).
  "fee.receipt",
  "payment.received",
  "fee.reminder",
  "invoice.overdue",
] as const;
export type OutboxEvent = (typeof OUTBOX_EVENTS)[number];

/** "a, b, c": for "must be one of" messages. */
export const oneOf = (values: readonly string[]) => values.join(", ");

/** The enquiry list's follow-up filter: due today (Hyderabad), overdue (past and still open), or none set. */
export const FOLLOW_UP_FILTERS = ["due", "overdue", "none"] as const;
export type FollowUpFilter = (typeof FOLLOW_UP_FILTERS)[number];

/** The enquiry list's orders (`?sort=`): newest first (the default), oldest first, next follow-up first. */
export const ENQUIRY_SORTS = ["newest", "oldest", "follow-up"] as const;
export type EnquirySort = (typeof ENQUIRY_SORTS)[number];
export const ENQUIRY_SORT_LABELS: Record<EnquirySort, string> = { newest: "Newest first", oldest: "Oldest first", "follow-up": "Next follow-up first" };
export const FOLLOW_UP_FILTER_LABELS: Record<FollowUpFilter, string> = { due: "Due today", overdue: "Overdue", none: "No follow-up set" };

/** An enquiry's place on a full batch's waitlist: waiting, offered a freed seat, or off the list and why. */
export const WAITLIST_ENTRY_STATUSES = ["waiting", "offered", "enrolled", "expired", "declined", "withdrawn"] as const;
export type WaitlistEntryStatus = (typeof WAITLIST_ENTRY_STATUSES)[number];
export const WAITLIST_ENTRY_STATUS_LABELS: Record<WaitlistEntryStatus, string> = {
  waiting: "Waiting",
  offered: "Offered a seat",
  enrolled: "Enrolled",
  expired: "Offer expired",
  declined: "Declined",
  withdrawn: "Left the waitlist",
};
/** A seat offered from the waitlist: open (holding the seat) until accepted, expired, declined or withdrawn. */
export const WAITLIST_OFFER_STATUSES = ["open", "accepted", "expired", "declined", "withdrawn"] as const;
export type WaitlistOfferStatus = (typeof WAITLIST_OFFER_STATUSES)[number];
/** The timeline's waitlist steps (a "waitlist" line's toValue). */
export const WAITLIST_STEPS = ["joined", "offered", "accepted", "expired", "declined", "withdrawn"] as const;
export type WaitlistStep = (typeof WAITLIST_STEPS)[number];

/** Which form an enquiry was sent from ("" for enquiries from before this was recorded). */
export const ENQUIRY_FORMS = ["home", "enquiry-page", "api"] as const;
export type EnquiryFormName = (typeof ENQUIRY_FORMS)[number];
/** The enquiry's own fields as the details screen labels them (for the audit log's words). */
export const ENQUIRY_FIELD_LABELS = {
  fullName: "Full name",
  email: "Email",
  phone: "Phone",
  preferredCourse: "Preferred course",
  preferredMode: "Preferred mode",
  message: "Message",
  whatsappNotifications: "WhatsApp notifications",
} as const;

export const ENQUIRY_FORM_LABELS: Record<EnquiryFormName, string> = { home: "Home page form", "enquiry-page": "Enquiry page", api: "API" };

/** Statuses where a lead is still being worked on: an overdue follow-up counts only for these. */
export const OPEN_ENQUIRY_STATUSES = ["new", "contacted"] as const satisfies readonly EnquiryStatus[];

/** What a timeline line records. */
export const TIMELINE_KINDS = ["note", "created", "status", "assignee", "follow_up", "batch", "waitlist", "escalated", "consent", "privacy", "fee"] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];
export const TIMELINE_SUBJECTS = ["enquiry", "contact_query"] as const;
export type TimelineSubject = (typeof TIMELINE_SUBJECTS)[number];

/**
 * Privacy (India's DPDP Act): what a consent row is for, what was done, and where. `notice`: the privacy notice shown
 * with the form the person sent (its version); `marketing`: newsletters, offers of other courses, WhatsApp
 * promotions; `guardian`: a parent's or guardian's consent for someone under 18; `whatsapp`: batch updates and
 * notifications about the person's own enquiry on WhatsApp (the form's box; withdrawn or given again on /me).
 */
export const CONSENT_PURPOSES = ["notice", "marketing", "guardian", "whatsapp"] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];
export const CONSENT_PURPOSE_LABELS: Record<ConsentPurpose, string> = {
  notice: "Privacy notice",
  marketing: "Marketing messages",
  guardian: "Parent or guardian consent",
  whatsapp: "WhatsApp updates",
};
export const CONSENT_ACTIONS = ["given", "withdrawn"] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];
export const CONSENT_CHANNELS = ["home", "enquiry-page", "contact-page", "api", "me", "guardian-link", "staff"] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
export const CONSENT_CHANNEL_LABELS: Record<ConsentChannel, string> = {
  home: "home page form",
  "enquiry-page": "enquiry page",
  "contact-page": "contact page",
  api: "API",
  me: "their own page (/me)",
  "guardian-link": "the guardian's consent link",
  staff: "staff",
};
/** A record's privacy state: "" ordinary; held (a minor's, until a guardian consents); erased (only counts remain). */
export const PRIVACY_STATES = ["", "held", "erased"] as const;
export type PrivacyState = (typeof PRIVACY_STATES)[number];
/**
 * The state of a record staff see and work on: neither a minor's held until a guardian consents, nor erased. The
 * dashboard's figures of what happened (per status, week, course, source) also count erased rows, which keep exactly
 * what those figures need; held ones count from the guardian's consent.
 */
export const SHOWN_TO_STAFF = "" satisfies PrivacyState;
