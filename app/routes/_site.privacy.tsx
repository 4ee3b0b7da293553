import { Link } from "react-router";
import { PageHero } from "~/components/site/page-hero";
import { SITE } from "~/config/site";
import { backupRetentionDays } from "~/services/backups.server";
import { backupSentence, fillNotice, GUARDIAN_CONSENT_DAYS, NOTICE_LANGUAGES, NOTICE_TEXTS, noticeText, PRIVACY_NOTICE_VERSION } from "~/config/privacy-notice";
import { env } from "~/env.server";
import { siteSettingsForPublicPages } from "~/services/site-settings.server";
import { breadcrumbLd, seoMeta } from "~/util/seo";
import { publicOrigin } from "~/util/origin.server";
import type { Route } from "./+types/_site.privacy";

/**
 * The privacy notice (DPDP Act), linked from the short notice beside every public form: each item collected with its
 * purpose and how long it is kept, the contact for questions and grievances (the site settings staff edit), the
 * visitor's rights and how to use them, complaints to the Data Protection Board. The texts are data
 * (app/config/privacy-notice.ts); ?lang=hi|te picks a translation once it exists. A public page: the page cache keeps
 * it, and a change to the settings (or the content version) renews it.
 */

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`);

export async function loader({ request }: Route.LoaderArgs) {
  const lang = new URL(request.url).searchParams.get("lang");
  const { text, language, translated } = noticeText(lang);
  const e = env();
  const settings = await siteSettingsForPublicPages();
  const values: Record<string, string> = {
    siteName: SITE.name,
    version: PRIVACY_NOTICE_VERSION,
    retentionMonths: String(e.RETENTION_MONTHS),
    enrolledMonths: String(e.RETENTION_ENROLLED_MONTHS),
    retention: `${e.RETENTION_MONTHS} months after the last activity on it (${e.RETENTION_ENROLLED_MONTHS} months for enrolled students), then erased.`,
    guardianDays: String(GUARDIAN_CONSENT_DAYS),
    formWindow: minutes(e.FORM_RATE_WINDOW),
    // Fees (issue 38): invoices and payments are kept as GST law asks (app/services/fee-privacy.server.ts).
    invoiceMonths: String(e.INVOICE_RETENTION_MONTHS),
    // The BACKUP_KEEP window: an archive made before an erasure is deleted at most this long after it.
    backups: backupSentence(`${backupRetentionDays()} days`),
  };
  const fill = (s: string) => fillNotice(s, values);
  const origin = publicOrigin();
  return {
    language,
    translated,
    languages: NOTICE_LANGUAGES.map((l) => ({ ...l, available: Boolean(NOTICE_TEXTS[l.code]) })),
    notice: {
      title: text.title,
      intro: fill(text.intro),
      version: fill(text.versionLabel),
      itemsHeading: text.itemsHeading,
      itemsIntro: text.itemsIntro,
      contentsHeading: text.contentsHeading,
      columns: text.columns,
      items: text.items.map((i) => ({ ...i, purpose: fill(i.purpose), kept: fill(i.kept) })),
      sections: text.sections.map((s) => ({ ...s, paragraphs: s.paragraphs.map(fill) })),
      contactHeading: text.contactHeading,
      contactIntro: text.contactIntro,
      contactLabels: text.contactLabels,
      notTranslated: text.notTranslated,
    },
    contact: {
      name: settings.privacyContactName,
      email: settings.privacyContactEmail,
      phone: settings.privacyContactPhone,
      address: settings.privacyContactAddress,
    },
    seo: seoMeta({
      title: "Privacy Notice",
      description: `What ${SITE.name} collects through its forms, why, how long it is kept, and how to see, correct or erase your data.`,
      path: "/privacy",
      origin,
      jsonLd: [breadcrumbLd(origin, [{ name: "Privacy", path: "/privacy" }])],
    }),
  };
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { notice, contact, languages, language, translated } = loaderData;
  return (
    <main id="main" lang={language}>
      <PageHero title={notice.title} crumbs={[{ name: "Privacy" }]} intro={notice.intro} />
      <div className="mx-auto max-w-4xl space-y-12 px-4 py-14 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
          <p data-testid="notice-version">{notice.version}</p>
          <nav aria-label="Language">
            <ul className="flex gap-3">
              {languages.map((l) => (
                <li key={l.code}>
                  {l.code === language ? (
                    <span aria-current="true" className="font-semibold text-slate-900">
                      {l.name}
                    </span>
                  ) : l.available ? (
                    <Link to={l.code === "en" ? "/privacy" : `/privacy?lang=${l.code}`} lang={l.code} className="text-brand-800 underline">
                      {l.name}
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <nav aria-labelledby="privacy-contents" className="rounded-xl border border-slate-200 bg-slate-50 p-5">
          <h2 id="privacy-contents" className="text-lg font-bold text-slate-900">
            {notice.contentsHeading}
          </h2>
          <ol className="mt-3 list-decimal space-y-1 pl-5 text-brand-800">
            {[
              { href: "#what-we-collect", label: notice.itemsHeading },
              ...notice.sections.map((s) => ({ href: `#section-${s.id}`, label: s.heading })),
              { href: "#privacy-contact", label: notice.contactHeading },
            ].map((entry) => (
              <li key={entry.href}>
                <a href={entry.href} className="underline underline-offset-2">
                  {entry.label}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {!translated ? <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950">{notice.notTranslated}</p> : null}

        <section aria-labelledby="what-we-collect">
          <h2 id="what-we-collect" className="text-2xl font-bold text-slate-900">
            {notice.itemsHeading}
          </h2>
          <p className="mt-3 text-slate-700">{notice.itemsIntro}</p>
          <ul className="mt-6 space-y-4">
            {notice.items.map((item) => (
              // The forms' field names only as data, for checks that every field sent is covered: the reader gets words.
              <li
                key={item.id}
                id={`item-${item.id}`}
                data-fields={item.fields.join(" ") || undefined}
                className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
              >
                <h3 className="text-lg font-semibold text-slate-900">{item.label}</h3>
                <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[11rem_1fr]">
                  <dt className="font-semibold text-slate-700">{notice.columns.fields}</dt>
                  {/* In words: the forms' internal field names mean nothing to a reader (issue 37.10). */}
                  <dd className="text-slate-800">{item.forms.charAt(0).toUpperCase() + item.forms.slice(1)}</dd>
                  <dt className="font-semibold text-slate-700">{notice.columns.purpose}</dt>
                  <dd className="text-slate-800">{item.purpose}</dd>
                  <dt className="font-semibold text-slate-700">{notice.columns.kept}</dt>
                  <dd className="text-slate-800">{item.kept}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </section>

        {notice.sections.map((s) => (
          <section key={s.id} aria-labelledby={`section-${s.id}`}>
            <h2 id={`section-${s.id}`} className="text-2xl font-bold text-slate-900">
              {s.heading}
            </h2>
            {s.paragraphs.map((p, i) => (
              <p key={i} className="mt-3 text-slate-700">
                {p}
              </p>
            ))}
            {s.id === "rights" ? (
              <p className="mt-3">
                <Link to="/enquiry#where-is-my-enquiry" className="font-semibold text-brand-800 underline">
                  Where is my enquiry? Get a link to your page
                </Link>
              </p>
            ) : null}
          </section>
        ))}

        <section aria-labelledby="privacy-contact" className="rounded-2xl border border-brand-100 bg-brand-50 p-6">
          <h2 id="privacy-contact" className="text-2xl font-bold text-slate-900">
            {notice.contactHeading}
          </h2>
          <p className="mt-3 text-slate-700">{notice.contactIntro}</p>
          <dl className="mt-4 grid gap-x-4 gap-y-2 sm:grid-cols-[8rem_1fr]" data-testid="privacy-contact">
            <dt className="font-semibold text-slate-700">{notice.contactLabels.name}</dt>
            <dd className="text-slate-900">{contact.name}</dd>
            <dt className="font-semibold text-slate-700">{notice.contactLabels.email}</dt>
            <dd>
              <a href={`mailto:${contact.email}`} className="text-brand-800 underline">
                {contact.email}
              </a>
            </dd>
            <dt className="font-semibold text-slate-700">{notice.contactLabels.phone}</dt>
            <dd>
              <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`} className="text-brand-800 underline">
                {contact.phone}
              </a>
            </dd>
            <dt className="font-semibold text-slate-700">{notice.contactLabels.address}</dt>
            <dd className="whitespace-pre-line text-slate-900">{contact.address}</dd>
          </dl>
        </section>
      </div>
    </main>
  );
}
