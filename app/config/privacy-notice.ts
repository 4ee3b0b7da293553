/**
 * The privacy notice (India's Digital Personal Data Protection Act 2023 and its Rules): what the site collects,
 * why, for how long, who to ask, and the visitor's rights. /privacy shows it; the short notice beside every
 * public form links to it; each submission records the version shown (app/services/privacy-consents.server.ts).
 *
 * The texts are data, one set per language: English is written; Hindi and Telugu fill the same shape
 * (NOTICE_TEXTS.hi, NOTICE_TEXTS.te) and /privacy?lang=hi|te shows them once present (English until then).
 * `{placeholders}` are filled when the page is rendered: the contact from the site settings, the retention
 * periods from the environment. Change PRIVACY_NOTICE_VERSION whenever the meaning of the notice changes: the
 * forms send it, and every consent row keeps the version the person saw.
 */
export const PRIVACY_NOTICE_VERSION = "2026-05-12";

export const NOTICE_LANGUAGES = [
  { code: "en", name: "English" },
  { code: "hi", name: "हिन्दी" },
  { code: "te", name: "తెలుగు" },
] as const;
export type NoticeLanguage = (typeof NOTICE_LANGUAGES)[number]["code"];

/** One item of data: what it is, the form fields that carry it (as the forms name them), why, and for how long. */
export type NoticeItem = { id: string; label: string; fields: string[]; forms: string; purpose: string; kept: string };
export type NoticeSection = { id: string; heading: string; paragraphs: string[] };

export type NoticeText = {
  title: string;
  intro: string;
  versionLabel: string;
  itemsHeading: string;
  itemsIntro: string;
  columns: { item: string; fields: string; purpose: string; kept: string };
  /** The heading of the list of the notice's sections at its top. */
  contentsHeading: string;
  items: NoticeItem[];
  sections: NoticeSection[];
  /** Beside each form: one or two sentences and the link text. */
  short: { enquiry: string; contact: string; link: string; marketing: string; under18: string };
  contactHeading: string;
  contactIntro: string;
  contactLabels: { name: string; email: string; phone: string; address: string };
  notTranslated: string;
};

/**
 * The one sentence about backups, kept here so the backup retention window (BACKUP_KEEP, set up with the backups)
 * can be wired in one place: `window` is its length in words ("30 days"), when known.
 */
export function backupSentence(window?: string | null): string {
  return window
    ? `Copies in our backups disappear once the backup retention window (${window}) has passed.`
    : "Copies in our backups disappear once the backup retention window has passed.";
}

const EN: NoticeText = {
  title: "Privacy notice",
  intro:
    "{siteName} (Hyderabad, India) decides why and how the personal data you give us is used: we are its Data Fiduciary under the Digital Personal Data Protection Act, 2023. This notice stands on its own: it says what we collect through this website, why, how long we keep it, and how you can see, correct or erase it, withdraw your consent, and complain.",
  versionLabel: "Version {version}",
  itemsHeading: "What we collect and why",
  itemsIntro: "Only what you type into our forms, and a few technical details. We use it only for the purpose in the same row; we never sell it.",
  contentsHeading: "Contents",
  columns: { item: "Item", fields: "Where you give it", purpose: "Why we need it", kept: "How long we keep it" },
  items: [
    {
      id: "name",
      label: "Your name",
      fields: ["fullName", "name"],
      forms: "enquiry and contact forms",
      purpose: "To address you and to find your enquiry or message.",
      kept: "{retention}",
    },
    {
      id: "email",
      label: "E-mail address",
      fields: ["email"],
      forms: "enquiry and contact forms",
      purpose: "To reply, to acknowledge what you sent, and to send you the link to your own page (/me).",
      kept: "{retention}",
    },
    {
      id: "phone",
      label: "Phone number",
      fields: ["phone"],
      forms: "enquiry form (required), contact form (optional)",
      purpose: "So that a counsellor can call you back within 24 hours, and WhatsApp updates if you ask for them.",
      kept: "{retention}",
    },
    {
      id: "course",
      label: "Course, preferred mode and batch",
      fields: ["preferredCourse", "preferredMode", "batchDate"],
      forms: "enquiry form",
      purpose: "To advise you on the right course and batch, and to keep your place on a full batch's waitlist.",
      kept: "{retention}",
    },
    {
      id: "message",
      label: "Your message and its subject",
      fields: ["message", "subject"],
      forms: "enquiry form (optional message), contact form",
      purpose: "To answer what you asked.",
      kept: "{retention}",
    },
    {
      id: "whatsapp",
      label: "WhatsApp updates (yes or no)",
      fields: ["whatsappNotifications"],
      forms: "enquiry form",
      purpose: "Whether we may send you batch updates about your enquiry on WhatsApp (not promotions).",
      kept: "{retention}",
    },
    {
      id: "attachments",
      label: "Attachments",
      fields: ["filePaths"],
      forms: "the /enquiry page (up to 3 files)",
      purpose: "Documents you choose to share with a counsellor, such as a resume or certificates.",
      kept: "{retention} The files are deleted from our server with the enquiry's personal data.",
    },
    {
      id: "marketing",
      label: "Your marketing choice",
      fields: ["marketingConsent"],
      forms: "enquiry and contact forms",
      purpose: "Whether you agree to newsletters, offers of other courses and WhatsApp promotions. It is unticked unless you tick it.",
      kept: "{retention} Each time you give or withdraw it is recorded with the date, where, and this notice's version.",
    },
    {
      id: "minor",
      label: "Under 18, and a parent's or guardian's name and e-mail",
      fields: ["under18", "guardianName", "guardianEmail"],
      forms: "enquiry and contact forms",
      purpose: "To ask a parent or guardian for consent before anyone at the institute reads what someone under 18 sent.",
      kept: "Until the parent or guardian consents, then {retention} Without consent within {guardianDays} days, everything is erased.",
    },
    {
      id: "notice",
      label: "The version of this notice you saw",
      fields: ["noticeVersion"],
      forms: "every form (hidden)",
      purpose: "A record of what you were told when you sent the form, with the date.",
      kept: "{retention}",
    },
    {
      id: "source",
      label: "Where you came from",
      fields: ["utm_source", "utm_medium", "utm_campaign", "referrer"],
      forms: "read from the address of the page you first opened (campaign tags) and your browser (the site that sent you)",
      purpose: "To see which advertisements and sites bring enquiries. It is never used to profile you.",
      kept: "{retention} Counts without your identity stay for the institute's statistics.",
    },
    {
      id: "ip",
      label: "IP address",
      fields: [],
      forms: "sent by your browser with every request",
      purpose: "To limit abuse: a few submissions per address in {formWindow}, and the server's access log for security.",
      kept: "In the abuse counters, for that window and at most an hour more; in the access log until it is rotated.",
    },
    {
      id: "technical",
      label: "Technical form fields",
      fields: ["intent", "website"],
      forms: "every form (hidden)",
      purpose: "Which form you used, and a field left empty by people and filled by spam robots.",
      kept: "Not stored.",
    },
  ],
  sections: [
    {
      id: "marketing",
      heading: "Marketing is a separate choice",
      paragraphs: [
        "Sending an enquiry or a message lets us reply about it, and nothing more. Newsletters, offers of other courses and WhatsApp promotions are sent only if you tick the separate box, which is never ticked for you. You can withdraw that consent at any time, as easily as you gave it: with one button on your own page (/me), or by writing to the contact below.",
      ],
    },
    {
      id: "retention",
      heading: "How long we keep it",
      paragraphs: [
        "An enquiry or message is kept for {retentionMonths} months after the last activity on it (your message, our reply or a change of its status); for enrolled students, {enrolledMonths} months, for certificates and placement support. Then its personal data is erased automatically: name, e-mail, phone, messages, attachments and anything in our notes that identifies you. Only figures without your identity remain (how many enquiries came for which course, and from where).",
        "{backups}",
        "If you enrol and pay fees, tax law asks us to keep the invoices, credit notes and payment receipts we issue to you, and our record of what you paid, for {invoiceMonths} months after the annual GST return of the financial year they belong to (the return is due on 31 December after the year ends). If you ask us to erase your data before then, we erase everything else, and keep in those records only what an invoice and a receipt must show: the name billed, your state, the amounts, the dates and the document numbers. When that period ends, the name is removed from them too.",
      ],
    },
    {
      id: "who",
      heading: "Who sees it",
      paragraphs: [
        "Our counsellors and administrators, through a password-protected back office that records who did what. Our e-mail provider carries the e-mails we send you. Our own systems that follow up enquiries may receive a copy. We do not sell or rent your data, and we do not share it with anyone else unless the law requires it.",
      ],
    },
    {
      id: "rights",
      heading: "Your rights: access, correction, erasure, withdrawal",
      paragraphs: [
        'Every e-mail we send you has a link to your own page. If you have lost it, use "Where is my enquiry?" on the enquiry page: we e-mail a fresh link to the address you gave us. On that page you can see your enquiries, messages, waitlist places and enrolments with their status, correct your name or phone, download all the data we hold about you (a JSON file), withdraw your marketing consent, and erase your personal data.',
        "You can also write to the contact below for any of these, or to nominate someone to act for you if you cannot. We answer within 90 days.",
      ],
    },
    {
      id: "children",
      heading: "If you are under 18",
      paragraphs: [
        "Tick \"I am under 18\" and give a parent's or guardian's name and e-mail. We e-mail them a link to consent; until they do, nobody at the institute sees what you sent, and no e-mail goes to you. Without their consent within {guardianDays} days, everything you sent is erased.",
      ],
    },
    {
      id: "breach",
      heading: "If something goes wrong",
      paragraphs: [
        "If a breach of security affects your personal data, we tell you and the Data Protection Board of India without delay: what happened, what it may mean for you, and what we are doing about it.",
      ],
    },
    {
      id: "complaints",
      heading: "Complaints",
      paragraphs: [
        "Please bring any question or grievance to the contact below first; we answer within 90 days. If you are not satisfied with our answer, you may complain to the Data Protection Board of India, set up under the Digital Personal Data Protection Act, 2023 (its address is published by the Ministry of Electronics and Information Technology, meity.gov.in).",
      ],
    },
    {
      id: "changes",
      heading: "Changes to this notice",
      paragraphs: [
        "This is version {version}. When we change its meaning we change the version; each enquiry and message records the version shown with the form.",
      ],
    },
  ],
  short: {
    enquiry:
      "We use these details only to answer your enquiry and follow it up: a counsellor calls and e-mails you, and your data is erased {retentionShort} after the last activity.",
    contact: "We use these details only to reply to your message, and erase them {retentionShort} after the last activity.",
    link: "Read our privacy notice",
    marketing: "Also send me newsletters, offers of other courses and WhatsApp promotions (optional; withdraw any time)",
    under18: "I am under 18",
  },
  contactHeading: "Questions and grievances",
  contactIntro: "Write or call about anything in this notice, or to use any of your rights. We answer within 90 days.",
  contactLabels: { name: "Contact", email: "E-mail", phone: "Phone", address: "Post" },
  notTranslated: "This notice is not yet available in your language; the English text follows.",
};

/** The texts per language; a language without its text shows English. */
export const NOTICE_TEXTS: Partial<Record<NoticeLanguage, NoticeText>> = { en: EN };

export function noticeText(language: string | null | undefined): { text: NoticeText; language: NoticeLanguage; translated: boolean } {
  const wanted = NOTICE_LANGUAGES.find((l) => l.code === language)?.code ?? "en";
  const text = NOTICE_TEXTS[wanted];
  return text ? { text, language: wanted, translated: true } : { text: EN, language: "en", translated: wanted === "en" };
}

/** Fills `{name}` placeholders; unknown ones are left as they are. */
export function fillNotice(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A minor's enquiry or message waits this long for the guardian's consent, then is erased. */
export const GUARDIAN_CONSENT_DAYS = 7;
