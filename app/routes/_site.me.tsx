import { data, useActionData } from "react-router";
import { MePage, type MeActionResult } from "~/components/site/me-page";
import { PageHero } from "~/components/site/page-hero";
import { RATE_LIMIT_MESSAGE } from "~/infra/rate-limit.server";
import { isServiceError } from "~/services/service-error";
import { correctMyDetails, eraseMe, requestMeLink, setMyMarketing, viewMe, type MeView } from "~/services/privacy-me.server";
import { seoMeta } from "~/util/seo";
import { publicOrigin } from "~/util/origin.server";
import { visitorActor } from "~/web/actor.server";
import { formToObject } from "~/web/api-body.server";
import type { Route } from "./+types/_site.me";
import { PERSONAL_HEADERS } from "~/web/personal-headers";
import { MeFees } from "~/components/site/me-fees";
import { feesOfMyEnquiries } from "~/services/fee-me.server";

/**
 * A visitor's own page (DPDP Act: access, correction, erasure, withdrawal of consent), opened by the link in every
 * e-mail to them (/me?token=…). Everything is a plain form: it works without JavaScript. Personal, so never kept by
 * any cache (no-store; not a page the page cache keeps), never indexed (noindex), never in the sitemap; the token
 * stays in the query string and a hidden field (the access log drops query strings), and no Referer carries it off.
 */

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.seo ?? [];
}

export function headers() {
  return PERSONAL_HEADERS;
}

const seo = () =>
  seoMeta({
    title: "Your enquiries",
    description: "See your enquiries and their status, correct your details, download or erase your data.",
    path: "/me",
    origin: publicOrigin(),
    noindex: true,
  });

type PageView = MeView | { state: "none" } | { state: "limited" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return { token, view: { state: "none" } as PageView, seo: seo() };
  try {
    const view = (await viewMe(visitorActor(context), token)) as PageView;
    // The person's fees (issue 38), from the enquiries the link has just opened (held ones never).
    const fees = view.state === "ok" ? await feesOfMyEnquiries(view.enquiries.filter((e) => !e.held).map((e) => e.id)) : null;
    return { token, view, fees, seo: seo() };
  } catch (error) {
    if (!isServiceError(error, "tooMany")) throw error;
    return data({ token, view: { state: "limited" } as PageView, seo: seo() }, { status: 429, headers: { "Retry-After": String(error.retryAfter ?? 60) } });
  }
}

/** Each form says what it is for (intent); the answer comes back as this page's action data. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const actor = visitorActor(context);
  const intent = String(form.get("intent") ?? "");
  const token = String(form.get("token") ?? "");
  const input = formToObject(form);
  const answer = (result: MeActionResult, status = 200, headers?: HeadersInit) => data(result, { status, headers });
  try {
    switch (intent) {
      case "send-link":
        await requestMeLink(actor, input);
        return answer({ intent: "send-link", sent: true });
      case "marketing": {
        const on = form.get("marketing") === "give";
        await setMyMarketing(actor, token, on);
        return answer({
          intent,
          done: on
            ? "Thank you: we may now send you newsletters and offers. You can stop them here at any time."
            : "Done: we will send you no more newsletters, offers or promotions. Replies about your enquiries still come.",
        });
      }
      case "correct":
        await correctMyDetails(actor, token, input);
        return answer({ intent, done: "Thank you: your details are corrected on every enquiry and message." });
      case "erase": {
        const result = await eraseMe(actor, token, input);
        return answer({ intent, erased: result.enquiries.length + result.contactQueries.length });
      }
      default:
        return answer({ intent: "unknown", formError: "Please use one of the buttons on this page." }, 400);
    }
  } catch (error) {
    if (isServiceError(error, "tooMany"))
      return answer({ intent, formError: RATE_LIMIT_MESSAGE, sent: false }, 429, { "Retry-After": String(error.retryAfter ?? 60) });
    if (isServiceError(error, "invalid")) {
      const fields = error.fields;
      if (intent === "send-link")
        return answer({ intent: "send-link", sent: false, error: fields.email ?? error.message, email: String(form.get("email") ?? "").slice(0, 254) }, 400);
      return answer({ intent, fields, formError: fields.token }, 400);
    }
    throw error;
  }
}

export default function Me({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>() as MeActionResult | undefined;
  return (
    <main id="main">
      <PageHero
        title="Your enquiries"
        crumbs={[{ name: "Your enquiries" }]}
        intro="Your enquiries and messages with us, and your data: see it, correct it, download it or erase it."
      />
      <div className="mx-auto max-w-4xl px-4 py-14 sm:px-6">
        <MePage token={loaderData.token} view={loaderData.view} result={result} />
        {"fees" in loaderData && loaderData.fees ? (
          <div className="mt-8">
            <MeFees token={loaderData.token} fees={loaderData.fees} />
          </div>
        ) : null}
      </div>
    </main>
  );
}
