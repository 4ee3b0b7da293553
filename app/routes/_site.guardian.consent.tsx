import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { PageHero } from "~/components/site/page-hero";
import { buttonClass } from "~/components/ui/button";
import { SITE } from "~/config/site";
import { GUARDIAN_CONSENT_DAYS } from "~/config/privacy-notice";
import { answerGuardian, viewGuardianRequest, type GuardianView } from "~/services/guardian-consent.server";
import { isServiceError } from "~/services/service-error";
import { DELIVERY_MODE_LABELS, type DeliveryMode } from "~/schemas/public-values";
import { formatDate, formatDateTime } from "~/util/dates";
import { publicOrigin } from "~/util/origin.server";
import { seoMeta } from "~/util/seo";
import { visitorActor } from "~/web/actor.server";
import type { Route } from "./+types/_site.guardian.consent";
import { PERSONAL_HEADERS } from "~/web/personal-headers";

/**
 * The link mailed to a minor's parent or guardian (DPDP Act: verifiable consent before a child's data is used):
 * GET shows what was sent and asks; the form's POST consents (the enquiry or message then reaches staff) or refuses
 * (it is erased at once). A plain form, no JavaScript needed; personal, so never cached or indexed.
 */

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

export function headers() {
  return PERSONAL_HEADERS;
}

const seo = () =>
  seoMeta({
    title: "Parent or guardian consent",
    description: "Consent to an enquiry sent by someone under 18.",
    path: "/guardian/consent",
    origin: publicOrigin(),
    noindex: true,
  });

const LIMITED: GuardianView = { state: "invalid" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    return { token, view: await viewGuardianRequest(visitorActor(context), token), limited: false, seo: seo() };
  } catch (error) {
    if (!isServiceError(error, "tooMany")) throw error;
    return data({ token, view: LIMITED, limited: true, seo: seo() }, { status: 429 });
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  try {
    return { token, view: await answerGuardian(visitorActor(context), token, form.get("answer") === "consent"), limited: false };
  } catch (error) {
    if (!isServiceError(error, "tooMany")) throw error;
    return data({ token, view: LIMITED, limited: true }, { status: 429 });
  }
}

export default function GuardianConsent({ loaderData }: Route.ComponentProps) {
  const answered = useActionData<typeof action>();
  const { token, view, limited } = answered ?? loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <main id="main">
      <PageHero title="Parent or guardian consent" crumbs={[{ name: "Guardian consent" }]} />
      <div className="mx-auto max-w-2xl px-4 py-14 sm:px-6">
        <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" aria-live="polite">
          <Body view={view} token={token} busy={busy} limited={limited} />
        </section>
      </div>
    </main>
  );
}

function Sent({ view }: { view: GuardianView }) {
  const s = view.sent;
  if (!s) return null;
  return (
    <dl className="mt-4 grid gap-x-4 gap-y-1 text-sm text-slate-800 sm:grid-cols-[9rem_1fr]">
      <dt className="font-semibold">Sent by</dt>
      <dd>{view.childName}</dd>
      <dt className="font-semibold">On</dt>
      <dd>{formatDateTime(s.createdAt)} (Hyderabad time)</dd>
      {s.course ? (
        <>
          <dt className="font-semibold">Course</dt>
          <dd>{`${s.course}${s.mode ? `, ${DELIVERY_MODE_LABELS[s.mode as DeliveryMode] ?? s.mode}` : ""}`}</dd>
        </>
      ) : null}
      {s.subject ? (
        <>
          <dt className="font-semibold">Subject</dt>
          <dd>{s.subject}</dd>
        </>
      ) : null}
      {s.message ? (
        <>
          <dt className="font-semibold">Message</dt>
          <dd className="whitespace-pre-line">{s.message}</dd>
        </>
      ) : null}
    </dl>
  );
}

function Body({ view, token, busy, limited }: { view: GuardianView; token: string; busy: boolean; limited: boolean }) {
  if (limited) return <p className="text-slate-700">Too many attempts. Please wait a few minutes and try again.</p>;
  if (view.state === "open") {
    return (
      <>
        <h2 className="text-2xl font-bold text-slate-900">{`${view.childName} needs your consent`}</h2>
        <p className="mt-3 text-slate-700">
          {`${view.childName} told us they are under 18 and named you, ${view.guardianName}, as their parent or guardian. India's Digital Personal Data Protection Act asks for your consent before ${SITE.name} uses their personal data. Until you answer, nobody at the institute reads what they sent.`}
        </p>
        <Sent view={view} />
        <p className="mt-4 text-sm text-slate-700">
          {`If you consent, a counsellor follows it up as our `}
          <Link to="/privacy" className="font-semibold text-brand-800 underline">
            privacy notice
          </Link>
          {` describes. If you refuse, or do not answer by ${view.expiresAt ? formatDateTime(view.expiresAt) : `${GUARDIAN_CONSENT_DAYS} days from the e-mail`}, everything they sent is erased.`}
        </p>
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <input type="hidden" name="token" value={token} />
          <button type="submit" name="answer" value="consent" className={buttonClass("primary")} disabled={busy}>
            I consent
          </button>
          <button type="submit" name="answer" value="refuse" className={buttonClass("outline")} disabled={busy}>
            I do not consent: erase it
          </button>
        </Form>
      </>
    );
  }
  const [title, text] =
    view.state === "consented"
      ? [
          "Thank you for your consent",
          `${view.childName ?? "Your child"}'s ${view.sent?.kind === "message" ? "message" : "enquiry"} has reached our team: a counsellor will be in touch with them.`,
        ]
      : view.state === "refused"
        ? ["Erased", "You did not consent: everything they sent is erased, and we will not contact them about it."]
        : view.state === "expired"
          ? [
              "This link has expired",
              `Without consent within ${GUARDIAN_CONSENT_DAYS} days, what they sent is erased. They can send a new enquiry at any time.`,
            ]
          : [
              "This link is not valid",
              "Please check that you opened the whole link from the e-mail. If what was sent has been erased, the link no longer works.",
            ];
  return (
    <>
      <h2 className="text-2xl font-bold text-slate-900">{title}</h2>
      <p className="mt-3 text-slate-700">{text}</p>
      <p className="mt-3 text-sm text-slate-700">
        {`Questions? Call us on ${SITE.phone}, or see the `}
        <Link to="/privacy" className="font-semibold text-brand-800 underline">
          privacy notice
        </Link>
        {view.expiresAt ? ` (this link was valid until ${formatDate(view.expiresAt)}).` : "."}
      </p>
    </>
  );
}
